// No import cycle among the run report's modules (src/report): each section builder depends on shared
// pieces (html-parts.ts), never on another section builder that depends back on it. Only value imports
// count: a type-only import is erased and loads nothing (otlp.ts names the lazily loaded otlp-spans.ts's
// type without loading it).

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './scan.ts';

/** Relative imports of each file in `dir` (extension `ext`), as file names in the same directory. */
function importGraph(dir: string, ext: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const name of readdirSync(dir).filter((n) => n.endsWith(ext) && !n.endsWith(`.test${ext}`))) {
    const src = readFileSync(path.join(dir, name), 'utf8');
    const deps = [...src.matchAll(/^import(?! type )[^'"]*['"]\.\/([^'"/]+)\.ts['"]/gm)].map((m) => `${m[1]}${ext}`);
    graph.set(name, deps.filter((d) => d !== name));
  }
  return graph;
}

/** Every cycle as "a -> b -> a" (depth-first; each reported once from its first module). */
function cycles(graph: Map<string, string[]>): string[] {
  const found = new Set<string>();
  const visit = (node: string, stack: string[]) => {
    const at = stack.indexOf(node);
    if (at >= 0) {
      const ring = stack.slice(at);
      const start = ring.indexOf([...ring].sort()[0]);
      found.add([...ring.slice(start), ...ring.slice(0, start), ring[start]].join(' -> '));
      return;
    }
    for (const d of graph.get(node) ?? []) if (graph.has(d)) visit(d, [...stack, node]);
  };
  for (const n of graph.keys()) visit(n, []);
  return [...found];
}

describe('import cycles', () => {
  it('finds a cycle between two modules (the check can fail)', () => {
    expect(cycles(importGraph(path.join(ROOT, 'test/architecture/fixtures/cycle'), '.ts.txt'))).toEqual(['a.ts.txt -> b.ts.txt -> a.ts.txt']);
  });

  it('src/report has none', () => {
    expect(cycles(importGraph(path.join(ROOT, 'src/report'), '.ts'))).toEqual([]);
  });
});
