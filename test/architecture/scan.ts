// The scanner behind single-source.test.ts: the spec facts the model holds (operation and webhook
// paths, section 7 messages, alias pairs) and the source lines that restate them. Runnable alone:
// `npx tsx test/architecture/scan.ts src/mutants src/load` lists the findings of any area.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Model } from '../../src/model/types.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function sourceFiles(dir: string): string[] {
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


const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const { loadModel } = await import('../../src/model/index.ts');
  const facts = factsOf(await loadModel());
  const found = process.argv.slice(2).flatMap((area) => violations(sourceFiles(path.join(ROOT, area)), facts));
  for (const v of found) console.log(v);
  console.log(`${found.length} finding(s)`);
  process.exitCode = found.length ? 1 : 0;
}
