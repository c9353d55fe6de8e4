// `verify --rejudge`: the package's checks run again, with the package's seed, against a playback
// target answering from the package's transcript (src/replay/playback.ts), one check at a time. No
// network and no original target. Every verdict of results.json is then reproduced (same verdict),
// differs (with the cause: a request nothing in the transcript answers, the failure met), or is not
// re-judgeable offline (spec/rules rejudge: no, listed in the certificate with the reason) and is
// not run: what it rests on is not in the transcript.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Check } from '../checks/types.ts';
import { ConfigError } from '../errors/index.ts';
import type { CheckResult, Reporter, RunEvent } from '../events/index.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import { loadHar, Playback } from '../replay/index.ts';
import { runChecks } from '../runner/index.ts';
import { loadChecks } from '../../suites/index.ts';
import { PACKAGE_FILES } from './layout.ts';
import { notRejudgeable, type NotRejudgeable } from './rejudgeable.ts';

export interface RejudgedVerdict {
  checkId: string;
  recorded: string;
  now: string;
  /** Why the verdict differs: what the playback could not answer, or the failure the check met. */
  reason?: string;
  /** Transcript entries (1-based) whose answers the check received. */
  entries: number[];
}

export interface RejudgeReport {
  seed: number;
  reproduced: RejudgedVerdict[];
  differs: RejudgedVerdict[];
  notRejudgeable: NotRejudgeable[];
  /** Checks the package's results.json records that this tool has no check for. */
  unknown: string[];
}

interface PackageDocs {
  seed: number;
  checks: { checkId: string; verdict: string; rules: string[] }[];
  profile: Record<string, unknown>;
}

async function readJson(dir: string, file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path.join(dir, file), 'utf8'));
  } catch (err) {
    throw new ConfigError(`--rejudge ${dir}: cannot read ${file} (${(err as Error).message}); give a package written by certify`);
  }
}

async function readPackage(dir: string): Promise<PackageDocs> {
  const cert = (await readJson(dir, PACKAGE_FILES.certificate)) as { seed?: unknown };
  const results = (await readJson(dir, PACKAGE_FILES.results)) as { checks?: PackageDocs['checks'] };
  const profile = (await readJson(dir, PACKAGE_FILES.profile)) as Record<string, unknown>;
  if (typeof cert.seed !== 'number') throw new ConfigError(`--rejudge ${dir}: certificate.json records no seed`);
  if (!Array.isArray(results.checks)) throw new ConfigError(`--rejudge ${dir}: results.json lists no checks`);
  return { seed: cert.seed, checks: results.checks, profile };
}

/** The packaged profile pointed at the playback servers; services the transcript cannot stand for are left out. */
function playbackProfile(doc: Record<string, unknown>, playback: Playback, model: Model) {
  const { webhooks: _w, idp: _i, ca_file: _c, control_adapter: _a, ...rest } = doc;
  const out: Record<string, unknown> = { ...rest };
  for (const key of ['base_url', 'pci_url', 'control_url'] as const) {
    const v = doc[key];
    if (typeof v !== 'string') continue;
    const url = playback.urlFor(v);
    if (url) out[key] = url;
    else if (key !== 'base_url') delete out[key];
  }
  if (typeof doc.base_url === 'string' && !playback.urlFor(doc.base_url)) throw new ConfigError(`--rejudge: the transcript holds no exchange with ${doc.base_url}, the base URL certified`);
  return resolveProfile(out, { env: {}, operations: model.operations }, 'packaged profile');
}

export interface RejudgeOptions {
  signal?: AbortSignal;
  /** Model and checks instead of the packaged ones (tests). */
  model?: Model;
  checkList?: Check[];
}

export async function rejudgePackage(dir: string, opts: RejudgeOptions = {}): Promise<RejudgeReport> {
  const docs = await readPackage(dir);
  const har = await loadHar(path.join(dir, PACKAGE_FILES.transcript));
  const model = opts.model ?? (await loadModel());
  const all = opts.checkList ?? (await loadChecks());
  const byId = new Map(all.map((c) => [c.id, c]));
  const unknown = docs.checks.filter((c) => !byId.has(c.checkId)).map((c) => c.checkId);
  const offlineNot = notRejudgeable(model, docs.checks.map((c) => ({ checkId: c.checkId, rules: byId.get(c.checkId)?.rules ?? c.rules, needs: byId.get(c.checkId)?.needs ?? [] })));
  const skip = new Set(offlineNot.map((n) => n.checkId));
  const checks = docs.checks.filter((c) => byId.has(c.checkId) && !skip.has(c.checkId)).map((c) => byId.get(c.checkId)!);

  const playback = await Playback.start(har);
  const results = new Map<string, CheckResult>();
  try {
    const profile = playbackProfile(docs.profile, playback, model);
    // One check at a time, so the playback knows whose request it answers.
    const follow: Reporter = {
      onEvent(e: RunEvent) {
        if (e.type === 'check-started') playback.setCheck(e.checkId);
        else if (e.type === 'check-finished') {
          results.set(e.result.checkId, e.result);
          playback.setCheck(undefined);
        }
      },
    };
    if (checks.length) {
      await runChecks({ profile, model, seed: docs.seed, concurrency: 1, preflight: false, services: {}, ...(opts.signal ? { signal: opts.signal } : {}) }, checks, [follow]);
    }
  } finally {
    await playback.close();
  }

  const reproduced: RejudgedVerdict[] = [];
  const differs: RejudgedVerdict[] = [];
  for (const c of docs.checks) {
    if (skip.has(c.checkId) || !byId.has(c.checkId)) continue;
    const r = results.get(c.checkId);
    const p = playback.resultOf(c.checkId);
    const now = r?.verdict ?? 'not run';
    const v: RejudgedVerdict = { checkId: c.checkId, recorded: c.verdict, now, entries: p.entries };
    if (now === c.verdict) reproduced.push(v);
    else differs.push({ ...v, reason: reasonOf(r, p.unmatched, p.takenBy) });
  }
  return { seed: docs.seed, reproduced, differs, notRejudgeable: offlineNot, unknown };
}

function reasonOf(r: CheckResult | undefined, unmatched: string[], takenBy: string[]): string {
  const parts: string[] = [];
  if (takenBy.length) parts.push(`${takenBy.length} of its recorded exchanges answered another check first (${takenBy.slice(0, 3).join(', ')})`);
  if (unmatched.length) parts.push(`the transcript does not answer ${unmatched.length} request(s): ${unmatched.slice(0, 3).join('; ')}`);
  if (r?.verdict === 'fail') parts.push(`${r.failure.rules?.length ? `${r.failure.rules.join(', ')}: ` : ''}${r.failure.message}`);
  else if (r?.verdict === 'blocked') parts.push(`blocked: ${r.blocked.message ?? JSON.stringify(r.blocked)}`);
  else if (r?.verdict === 'skip') parts.push(`skipped: ${r.reason}`);
  return parts.join('; ') || 'the check ran, with another verdict';
}
