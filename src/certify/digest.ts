// SHA-256 digests: of one file, of every file under a directory (sorted, relative paths with /), and
// of spec/ as one value (the digest of its sorted "path sha256" lines) so a certificate names the
// exact model it was judged against.

import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Every regular file under `dir`, as sorted relative paths with forward slashes. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(r);
      else out.push(r);
    }
  };
  await walk('');
  return out.sort();
}

export async function digestTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await listFiles(dir)) out[f] = sha256(await readFile(path.join(dir, f)));
  return out;
}

/** One digest for a tree: sha256 over its sorted `path sha256\n` lines. */
export function treeDigest(files: Record<string, string>): string {
  return sha256(Object.keys(files).sort().map((f) => `${f} ${files[f]}\n`).join(''));
}
