// A snapshot of the model's validated inputs (inputs.ts) for the package's own spec/, so a run does not
// parse, validate and dereference unchanged spec files again (about half a second of every start).
// Keyed by a digest of every file under spec/ and of SNAPSHOT_FORMAT: a changed file misses and takes
// the full path with its ModelErrors, which writes a fresh snapshot only after everything validated.
// Kept in node_modules/.cache/baas-conform beside the package (like eslint's cache); an unwritable or
// unreadable cache is no error, only a slower start. Shared objects of the dereferenced documents (a
// $ref'd schema used in many places) stay shared through the round trip, as swagger-parser built them.

import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packagePath } from '../package/index.ts';
import type { ModelInputs } from './inputs.ts';

/** Changes when the snapshot's content or encoding does. */
const SNAPSHOT_FORMAT = 'model-inputs/1';
const CACHE_DIR = packagePath('node_modules', '.cache', 'baas-conform');
const DEF = '\u0000def';
const REF = '\u0000ref';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out.sort();
}

/**
 * The code that reads the inputs (inputs.ts, or inputs.js in dist/): a change to how they are read is a
 * different snapshot even for the same spec files, without anyone remembering SNAPSHOT_FORMAT.
 */
async function readerSource(): Promise<Buffer> {
  for (const name of ['inputs.ts', 'inputs.js']) {
    try {
      return await readFile(fileURLToPath(new URL(name, import.meta.url)));
    } catch {
      // not this build's file name
    }
  }
  return Buffer.alloc(0);
}

/** Digest of every file under `specDir` (names and bytes) and of the inputs reader's source. */
export async function specDigest(specDir: string): Promise<string> {
  const h = createHash('sha256').update(SNAPSHOT_FORMAT).update(await readerSource());
  for (const f of await filesUnder(specDir)) h.update(`\0${path.relative(specDir, f)}\0`).update(await readFile(f));
  return h.digest('hex');
}

const snapshotFile = (digest: string) => path.join(CACHE_DIR, `model-${digest.slice(0, 32)}.json`);

/** Plain JSON with every object met twice written once ({DEF: id, v}) and referred to after ({REF: id}). */
export function encodeShared(root: unknown): unknown {
  const seen = new Set<object>();
  const shared = new Set<object>();
  const count = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (seen.has(v)) return void shared.add(v);
    seen.add(v);
    for (const x of Array.isArray(v) ? v : Object.values(v)) count(x);
  };
  count(root);
  const ids = new Map<object, number>();
  const enc = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const id = ids.get(v);
    if (id !== undefined) return { [REF]: id };
    const body = () => (Array.isArray(v) ? v.map(enc) : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, enc(x)])));
    if (!shared.has(v)) return body();
    ids.set(v, ids.size);
    return { [DEF]: ids.get(v), v: body() };
  };
  return enc(root);
}

export function decodeShared(root: unknown): unknown {
  type Obj = Record<string, unknown>;
  const byId = new Map<unknown, unknown>();
  const fill = (v: object, into: unknown[] | Obj): unknown => {
    if (Array.isArray(v)) for (const x of v) (into as unknown[]).push(dec(x));
    else for (const [k, x] of Object.entries(v)) (into as Obj)[k] = dec(x);
    return into;
  };
  const dec = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return fill(v, []);
    const o = v as Obj;
    if (REF in o) return byId.get(o[REF]);
    if (DEF in o) {
      // Registered before its members, so a member may refer back to it.
      const out = Array.isArray(o.v) ? [] : {};
      byId.set(o[DEF], out);
      return fill(o.v as object, out);
    }
    return fill(o, {});
  };
  return dec(root);
}

/** The inputs stored for `digest`, or undefined (none, unreadable, or another digest). */
export async function readSnapshot(digest: string): Promise<ModelInputs | undefined> {
  try {
    const s = JSON.parse(await readFile(snapshotFile(digest), 'utf8'));
    return s.digest === digest ? (decodeShared(s.inputs) as ModelInputs) : undefined;
  } catch {
    return undefined;
  }
}

/** Snapshots kept: the sources and dist/ of one checkout each have theirs (their readers differ). */
const KEEP = 4;

/** Drops all but the KEEP newest snapshots: those of earlier spec files are never read again. */
async function prune(): Promise<void> {
  const files = (await readdir(CACHE_DIR)).filter((f) => /^model-[0-9a-f]+\.json$/.test(f)).map((f) => path.join(CACHE_DIR, f));
  const dated = await Promise.all(files.map(async (f) => ({ f, at: (await stat(f).catch(() => undefined))?.mtimeMs ?? 0 })));
  for (const { f } of dated.sort((a, b) => b.at - a.at).slice(KEEP)) await rm(f, { force: true });
}

/** Stores validated inputs; written whole or not at all (rename), failures ignored. */
export async function writeSnapshot(digest: string, inputs: ModelInputs): Promise<void> {
  const file = snapshotFile(digest);
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await mkdir(CACHE_DIR, { recursive: true });
    await writeFile(tmp, JSON.stringify({ digest, inputs: encodeShared(inputs) }));
    await rename(tmp, file);
    await prune();
  } catch {
    // A read-only install: every start takes the full path, as without a snapshot.
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}
