// The scanner behind single-source.test.ts: the spec facts the model holds (operation and webhook
// paths, section 7 messages, alias pairs) and the source lines that restate them. Runnable alone:
// `npx tsx test/architecture/scan.ts [area...]` lists the findings of the given areas (default: every
// hand-written folder).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Model } from '../../src/model/types.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function sourceFiles(dir: string): string[] {
  if (dir.endsWith('.ts')) return dir.endsWith('.test.ts') ? [] : [dir];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** Source without comments (a comment may cite the spec; code may not restate it); line numbers kept. */
export function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, '')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A path as a whole token anywhere in code: quoted ('/api/v1/token'), after a method in prose
 * ('GET /api/v1/wallets', `POST /api/v1/token answered ...`) or after a template part (`${base}/v2/webhooks/user`);
 * not a prefix of a longer path (/api/v1/user in /api/v1/user/retail).
 */
const pathIn = (p: string) => new RegExp(`(?<![\\w/.-])${esc(p)}(?![\\w/-])`);

export interface Fact {
  kind: 'operation path' | 'webhook path' | 'error message' | 'alias pair';
  text: string;
  /** Matches a line that restates the fact. */
  re: RegExp;
}

/** Every restatable fact the model holds. */
export function factsOf(model: Model): Fact[] {
  const facts: Fact[] = [];
  for (const op of model.operations.values()) {
    if (!op.pathUnspecified) facts.push({ kind: 'operation path', text: `${op.operationId} ${op.path}`, re: pathIn(op.path) });
  }
  for (const w of model.webhooks) if (w.path) facts.push({ kind: 'webhook path', text: `${w.id} ${w.path}`, re: pathIn(w.path) });
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

/** One finding per line and restated text (/api/v1/user is the path of two operations: one finding). */
export function violations(files: string[], facts: Fact[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const lines = stripComments(readFileSync(file, 'utf8')).split('\n');
    lines.forEach((line, i) => {
      const seen = new Set<string>();
      for (const f of facts) {
        const what = `${f.kind} ${f.text.slice(f.text.indexOf(' ') + 1)}`;
        if (seen.has(what) || !f.re.test(line)) continue;
        seen.add(what);
        out.push(`${path.relative(ROOT, file)}:${i + 1}: ${f.kind} ${f.text}: ${line.trim().slice(0, 120)}`);
      }
    });
  }
  return out;
}

/** Folders of generated code (`npm run generate`): they render the model by design. */
export const GENERATED = ['src/generated', 'suites/generated'];

/** Every hand-written folder holding TypeScript: each top-level folder of src/ and suites/ but the generated ones, and the rest of the tree's code folders. */
export function handWrittenAreas(): string[] {
  const sub = (dir: string) => readdirSync(path.join(ROOT, dir)).map((n) => `${dir}/${n}`).filter((p) => !GENERATED.includes(p) && (statSync(path.join(ROOT, p)).isDirectory() || p.endsWith('.ts')));
  return [...sub('src'), ...sub('suites'), 'generators', 'examples', 'bench', 'test'].filter((p) => sourceFiles(path.join(ROOT, p)).length > 0);
}


const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const { loadModel } = await import('../../src/model/index.ts');
  const facts = factsOf(await loadModel());
  const areas = process.argv.length > 2 ? process.argv.slice(2) : handWrittenAreas();
  const found = areas.flatMap((area) => violations(sourceFiles(path.join(ROOT, area)), facts));
  for (const v of found) console.log(v);
  console.log(`${found.length} finding(s) in ${areas.join(' ')}`);
  process.exitCode = found.length ? 1 : 0;
}
