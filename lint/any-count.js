// Counts explicit `any` outside tests the way the ratchet does (TSAnyKeyword nodes, *.test.ts and
// test/ excluded, the folders eslint.config.js ignores skipped): `node lint/any-count.js` prints the
// total and the files holding any; `--write` rewrites lint/any-baseline.json to the counts found,
// which lowers entries after a change removed some (the lint rule refuses a file above its entry).

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, simpleTraverse } from '@typescript-eslint/typescript-estree';
import { BASELINE_FILE } from './any-ratchet.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'test', 'baas-conform-report']);
const SKIP_PATHS = ['src/generated'];

function* tsFiles(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = path.relative(ROOT, path.join(dir, e.name)).split(path.sep).join('/');
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !SKIP_PATHS.includes(rel)) yield* tsFiles(path.join(dir, e.name));
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) yield rel;
  }
}

export function countAny() {
  const files = {};
  for (const rel of tsFiles(ROOT)) {
    let n = 0;
    simpleTraverse(parse(readFileSync(path.join(ROOT, rel), 'utf8'), { loc: false, range: false }), { enter: (node) => void (node.type === 'TSAnyKeyword' && n++) });
    if (n > 0) files[rel] = n;
  }
  return files;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const files = countAny();
  const total = Object.values(files).reduce((a, b) => a + b, 0);
  for (const [f, n] of Object.entries(files).sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(4)} ${f}`);
  console.log(`total explicit any outside tests: ${total}`);
  if (process.argv.includes('--write')) {
    const doc = JSON.parse(readFileSync(BASELINE_FILE, 'utf8'));
    const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(BASELINE_FILE, `${JSON.stringify({ ...doc, total, files: sorted }, null, 1)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), BASELINE_FILE.pathname)}`);
  }
}
