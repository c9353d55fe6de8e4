// The replay mode's entry (`baas-conform replay FILE`): a HAR re-sent with fresh tokens against a target
// (the one target choice, src/api/target.ts), or one check of a results.json re-run with its seed.

import { readFile } from 'node:fs/promises';
import { loadResults, RESULTS_KIND, type ResultsDoc } from '../baseline/index.ts';
import { loadModel } from '../model/index.ts';
import type { TargetProfile } from '../profile/index.ts';
import { loadHar, replayHar, type ReplayOutcome } from '../replay/index.ts';
import { resolveTarget } from './target.ts';

export { loadResults, type ResultsDoc } from '../baseline/index.ts';
export type { ReplayOutcome } from '../replay/index.ts';

/** 'results' for a results.json (its `kind`), else 'har' (loadHar says what is wrong with a bad file). */
export async function replayFileKind(file: string): Promise<'results' | 'har'> {
  try {
    return (JSON.parse(await readFile(file, 'utf8')) as { kind?: string }).kind === RESULTS_KIND ? 'results' : 'har';
  } catch {
    return 'har';
  }
}

export interface HarReplayModeOptions {
  /** A HAR 1.2 file (run --har). */
  file: string;
  profile?: string | TargetProfile;
  target?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Replay only these entries (1-based). */
  entries?: number[];
  /** Also send requests that create state or move money. */
  allowWrites?: boolean;
  signal?: AbortSignal;
  /** Told when the embedded reference is the target. */
  log?: (line: string) => void;
}

/** Re-sends the HAR's requests with fresh tokens; one outcome per entry. */
export async function replayHarMode(options: HarReplayModeOptions): Promise<ReplayOutcome[]> {
  const har = await loadHar(options.file);
  const chosen = await resolveTarget({ profile: options.profile, target: options.target, env: options.env ?? process.env, cwd: options.cwd ?? process.cwd() });
  try {
    if (chosen.embedded) options.log?.(`no --profile or --target: replaying against the embedded reference at ${chosen.profile.base_url}`);
    return await replayHar(har, { profile: chosen.profile, model: await loadModel(), entries: options.entries ?? [], allowWrites: !!options.allowWrites, ...(options.signal ? { signal: options.signal } : {}) });
  } finally {
    await chosen.close();
  }
}

/** The results file a check replay reads (its seed and verdicts). */
export const readResultsFile = (file: string): Promise<ResultsDoc> => loadResults(file);
