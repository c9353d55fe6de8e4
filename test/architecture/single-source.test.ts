// "Only the model holds them": no hand-written module of the areas listed below restates an operation
// path, a webhook path, a section 7 error message or a deprecated-alias pair that spec/ holds. Each
// must be read from the model (model.operation(id).path, model.webhookPath(id), model.errorRule(id),
// an alias rule by id), so a rename in spec/ flows through `npm run generate` and tsc. Tests
// (*.test.ts) may pin spec values as expectations and are not scanned.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/model/index.ts';
import type { Model } from '../../src/model/types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Areas proven clean; the others join once their owners report them clean (COORD.log). */
export const SCANNED = ['src/reference'];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** Source without comments (a comment may cite the spec; code may not restate it). */
export function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface Fact {
  kind: 'operation path' | 'webhook path' | 'error message' | 'alias pair';
  text: string;
  /** Matches a line that restates the fact. */
  re: RegExp;
}

/** Every restatable fact the model holds. */
export function factsOf(model: Model): Fact[] {
  const facts: Fact[] = [];
  const quoted = (s: string) => new RegExp(`['"\`]${esc(s)}['"\`?]`);
  for (const op of model.operations.values()) {
    if (!op.pathUnspecified) facts.push({ kind: 'operation path', text: `${op.operationId} ${op.path}`, re: quoted(op.path) });
  }
  for (const w of model.webhooks) if (w.path) facts.push({ kind: 'webhook path', text: `${w.id} ${w.path}`, re: quoted(w.path) });
  for (const r of model.rules) {
    if (r.kind === 'error' && r.message) facts.push({ kind: 'error message', text: `${r.id} "${r.message}"`, re: new RegExp(esc(r.message)) });
    if (r.kind === 'alias') {
      const a = `['"\`]${esc(r.old)}['"\`]`;
      const b = `['"\`]${esc(r.new)}['"\`]`;
      facts.push({ kind: 'alias pair', text: `${r.id} ${r.new}/${r.old}`, re: new RegExp(`${a}.*${b}|${b}.*${a}`) });
    }
  }
  return facts;
}

export function violations(files: string[], facts: Fact[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const lines = stripComments(readFileSync(file, 'utf8')).split('\n');
    lines.forEach((line, i) => {
      for (const f of facts) if (f.re.test(line)) out.push(`${path.relative(ROOT, file)}:${i + 1}: ${f.kind} ${f.text}: ${line.trim().slice(0, 120)}`);
    });
  }
  return out;
}

describe('only the model holds spec facts', () => {
  it('finds every kind of fact in a module that restates them (the scan can fail)', async () => {
    const model = await loadModel();
    const facts = factsOf(model);
    const tmp = path.join(ROOT, 'test/architecture/fixtures/restates.ts.txt');
    const found = violations([tmp], facts).map((v) => v.split(': ')[1].split(' ').slice(0, 2).join(' '));
    expect(new Set(found)).toEqual(new Set(['operation path', 'webhook path', 'error message', 'alias pair']));
  });

  it.each(SCANNED)('%s restates no operation path, webhook path, error message or alias pair', async (area) => {
    const model = await loadModel();
    expect(violations(sourceFiles(path.join(ROOT, area)), factsOf(model))).toEqual([]);
  });
});
