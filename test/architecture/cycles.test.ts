// No import cycle among the run report's modules (src/report): each section builder depends on shared
// pieces (html-parts.ts), never on another section builder that depends back on it. Only value imports
// count: a type-only import is erased and loads nothing (otlp.ts names the lazily loaded otlp-spans.ts's
// type without loading it).

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './scan.ts';

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

/**
 * Every import (type imports included: a type cycle is a design cycle) between the files under `dirs`,
 * resolved to paths relative to the root.
 */
function fileGraph(dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap((d) => sourceFiles(path.join(ROOT, d)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const deps = [...readFileSync(f, 'utf8').matchAll(/^(?:import|export)[^'"]*?from\s*['"](\.[^'"]+\.ts)['"]/gm)].map((m) => path.resolve(path.dirname(f), m[1])).filter((d) => known.has(d));
    graph.set(path.relative(ROOT, f), deps.map((d) => path.relative(ROOT, d)));
  }
  return graph;
}

/** Strongly connected components of more than one file (each is one or more cycles), by Tarjan's algorithm. */
function tangles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const connect = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) connect(v);
  return out;
}

describe('import cycles', () => {
  it('finds a cycle between two modules (the check can fail)', () => {
    expect(cycles(importGraph(path.join(ROOT, 'test/architecture/fixtures/cycle'), '.ts.txt'))).toEqual(['a.ts.txt -> b.ts.txt -> a.ts.txt']);
  });

  it('src/report has none', () => {
    expect(cycles(importGraph(path.join(ROOT, 'src/report'), '.ts'))).toEqual([]);
  });

  it('none spans two folders of src/ or suites/ (HTTP types live in src/client, below checks and control)', () => {
    const spanning = tangles(fileGraph(['src', 'suites'])).filter((scc) => new Set(scc.map((f) => path.dirname(f))).size > 1);
    expect(spanning).toEqual([]);
  });

  it('suites/kit has none (a TestUser is its own module)', () => {
    expect(tangles(fileGraph(['suites/kit']))).toEqual([]);
  });
});
