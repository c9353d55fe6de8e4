// The runs a history is built from: results.json files the toolkit wrote (kind, version and schema are
// checked by the baseline reader, so a foreign or other-version file is refused with a ResultsFileError,
// exit 2), of one target, in run-time order. The same run given twice counts once.

import { resolve } from 'node:path';
import { loadResults, type ResultsDoc } from '../baseline/index.ts';
import { ConfigError } from '../errors/index.ts';
import { REFERENCE_TARGET_NAME } from '../reference/types.ts';
import type { HistoryRun, Verdict } from './types.ts';

interface Counts {
  passed: number;
  failed: number;
  blocked: number;
  skipped: number;
}

/** What results.schema.json guarantees beyond ResultsDoc's subset. */
interface FullResults extends ResultsDoc {
  runId: string;
  seed: number;
  started: string;
  tool: { name: string; version: string };
  target: { name: string; base_url: string };
  summary: Counts & { rules: Counts };
  shard?: string;
  exit?: { code: number };
}

/** One run with its verdicts by id. */
export interface LoadedRun {
  run: HistoryRun;
  targetName: string;
  /** `i/n` when the run was one shard of a night. */
  shard?: string;
  checks: Map<string, Verdict>;
  rules: Map<string, Verdict>;
}

const counts = (c: Counts) => ({ passed: c.passed, failed: c.failed, blocked: c.blocked, skipped: c.skipped });

function toRun(doc: FullResults, file: string): LoadedRun {
  return {
    run: {
      runId: doc.runId,
      file,
      seed: doc.seed,
      started: doc.started,
      toolVersion: doc.tool.version,
      baseUrl: doc.target.base_url,
      checks: counts(doc.summary),
      rules: counts(doc.summary.rules),
      ...(doc.exit ? { exitCode: doc.exit.code } : {}),
    },
    targetName: doc.target.name,
    ...(doc.shard ? { shard: doc.shard } : {}),
    checks: new Map(doc.checks.map((c) => [c.checkId, c.verdict as Verdict])),
    rules: new Map(doc.rules.map((r) => [r.id, r.verdict as Verdict])),
  };
}

/** Reads, validates and orders the files (by start time, then run id); throws on a bad file or mixed targets. */
export async function loadRuns(files: string[], cwd: string): Promise<LoadedRun[]> {
  if (files.length === 0) throw new ConfigError('history needs at least one results.json (give the files of the nights to compare, oldest to newest in any order)', 'BAAS_HISTORY_NO_RUNS');
  const loaded = await Promise.all(files.map(async (f) => toRun((await loadResults(resolve(cwd, f))) as FullResults, f)));
  const byId = new Map<string, LoadedRun>();
  for (const r of loaded) if (!byId.has(r.run.runId)) byId.set(r.run.runId, r);
  const runs = [...byId.values()].sort((a, b) => a.run.started.localeCompare(b.run.started) || a.run.runId.localeCompare(b.run.runId));
  const names = [...new Set(runs.map((r) => r.targetName))];
  if (names.length > 1) {
    const example = names.map((n) => `${JSON.stringify(n)} (${runs.find((r) => r.targetName === n)!.run.file})`).join(', ');
    throw new ConfigError(`a history is of one target, these files are of ${names.length}: ${example}; give the results of one target (its profile's name) per history`, 'BAAS_HISTORY_MIXED_TARGETS');
  }
  // Shards of one night run different checks: mixed, every check would look absent every other run.
  const shards = [...new Set(runs.map((r) => r.shard ?? 'none'))];
  if (shards.length > 1) throw new ConfigError(`the files are of different shards (${shards.join(', ')}): keep one history per shard (run --shard i/n --history history-shard-i)`, 'BAAS_HISTORY_MIXED_SHARDS');
  return runs;
}

/**
 * The reference publishes its profile under REFERENCE_TARGET_NAME on loopback (embedded or `serve`); a
 * user's own target named so on loopback would be taken for it: name your profile otherwise.
 */
export function isReferenceRun(r: LoadedRun): boolean {
  let host = '';
  try {
    host = new URL(r.run.baseUrl).hostname;
  } catch {
    return false;
  }
  return r.targetName === REFERENCE_TARGET_NAME && (/^127\./.test(host) || host === 'localhost' || host === '[::1]');
}
