// A certification package's signed verdicts against a spec change: which the change invalidates,
// which carry over, and the run that re-judges the invalidated ones. Reads results.json and
// certificate.json as certify writes them, tolerantly: only the fields named here, any other ignored,
// and a missing field reported rather than guessed.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../errors/index.ts';
import type { Impact } from './impact.ts';
// The package's file names, without loading the certify engine.
import { PACKAGE_FILES } from '../certify/layout.ts';

const RESULTS = PACKAGE_FILES.results;
const CERTIFICATE = PACKAGE_FILES.certificate;

export interface PackageVerdicts {
  dir: string;
  checks: { id: string; verdict: string }[];
  rules: { id: string; verdict: string; checks: string[] }[];
  /** certificate.json spec.files (path -> sha256), when present. */
  specFiles?: Record<string, string>;
}

export interface PackageImpact {
  invalidated: { checks: { id: string; verdict: string }[]; rules: { id: string; verdict: string }[] };
  carried: { checks: string[]; rules: string[] };
  /** Rules the new spec adds or removes: no signed verdict exists for them, or it no longer applies. */
  unsigned: string[];
  /** Files of spec/ whose digest differs from the one the package was judged against (empty: it matches OLD). */
  specMismatch?: string[];
  /** The run that re-judges what was invalidated. */
  command: string;
}

async function json(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`--package: cannot read ${file} (${(err as Error).message}); give the directory \`baas-conform certify --out DIR\` wrote`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`--package: ${file} is not JSON (${(err as Error).message})`);
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

export async function readPackage(dir: string): Promise<PackageVerdicts> {
  const results = (await json(path.join(dir, RESULTS))) as { checks?: unknown; rules?: unknown } | null;
  if (!results || !Array.isArray(results.checks) || !Array.isArray(results.rules)) throw new ConfigError(`--package: ${path.join(dir, RESULTS)} has no checks and rules lists; it is not a results.json of baas-conform`);
  const checks = (results.checks as { checkId?: unknown; verdict?: unknown }[]).flatMap((c) => (str(c?.checkId) ? [{ id: str(c.checkId)!, verdict: str(c.verdict) ?? 'unknown' }] : []));
  const rules = (results.rules as { id?: unknown; verdict?: unknown; checks?: unknown }[]).flatMap((r) => (str(r?.id) ? [{ id: str(r.id)!, verdict: str(r.verdict) ?? 'unknown', checks: Array.isArray(r.checks) ? r.checks.filter((x): x is string => typeof x === 'string') : [] }] : []));
  let specFiles: Record<string, string> | undefined;
  try {
    const cert = (await json(path.join(dir, CERTIFICATE))) as { spec?: { files?: unknown } } | null;
    const files = cert?.spec?.files;
    if (files && typeof files === 'object') specFiles = Object.fromEntries(Object.entries(files).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  } catch {
    // An uncertified results directory has no certificate: the verdicts are still read.
  }
  return { dir, checks, rules, ...(specFiles ? { specFiles } : {}) };
}

/** `baas-conform run --check ...` for `checks`, or the whole run when `all`. */
export function rerunCommand(checks: readonly string[], all: boolean): string {
  if (all) return 'baas-conform run';
  if (!checks.length) return '';
  return `baas-conform run ${checks.map((c) => `--check ${c}`).join(' ')}`;
}

export function packageImpact(pkg: PackageVerdicts, impact: Impact, addedOrRemoved: readonly string[], oldSpecFiles?: Record<string, string>): PackageImpact {
  const touched = new Set(impact.checks);
  const touchedRules = new Set(impact.rules);
  const checks = pkg.checks.filter((c) => impact.all || touched.has(c.id));
  const rules = pkg.rules.filter((r) => impact.all || touchedRules.has(r.id) || r.checks.some((c) => touched.has(c)));
  let specMismatch: string[] | undefined;
  if (pkg.specFiles && oldSpecFiles) {
    const names = new Set([...Object.keys(pkg.specFiles), ...Object.keys(oldSpecFiles)]);
    specMismatch = [...names].filter((f) => pkg.specFiles![f] !== oldSpecFiles[f]).sort();
  }
  return {
    invalidated: { checks, rules: rules.map((r) => ({ id: r.id, verdict: r.verdict })) },
    carried: { checks: pkg.checks.filter((c) => !checks.includes(c)).map((c) => c.id), rules: pkg.rules.filter((r) => !rules.includes(r)).map((r) => r.id) },
    unsigned: [...addedOrRemoved].sort(),
    ...(specMismatch ? { specMismatch } : {}),
    command: rerunCommand(impact.all ? [] : impact.checks, impact.all),
  };
}
