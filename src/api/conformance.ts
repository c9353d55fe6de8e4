// runConformance: one conformance run, from target choice to outcome. `baas-conform run` is this
// function plus flag parsing and file reporters; library users call it directly with their own
// reporters or an onEvent callback.

import type { Check } from '../checks/types.ts';
import type { Reporter, RunEvent } from '../events/index.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { parseShard, type Shard } from '../options/index.ts';
import { resolveTarget, type Target } from './target.ts';
import { maskSecrets, type ResolvedProfile, type TargetProfile } from '../profile/index.ts';
// The constant alone: the reference is imported only when it is the target (api/target.ts).
import { EMBEDDED_RUN_RATE_LIMIT } from '../reference/rate-limits.ts';
import { runChecks, type RunOptions, type RunOutcome } from '../runner/index.ts';
import { loadChecks } from '../../suites/index.ts';

export interface ConformanceOptions extends Omit<RunOptions, 'profile' | 'model' | 'shard' | 'checkIds' | 'services' | 'preflight'> {
  /**
   * The implementation under test: a path to a target profile JSON file (spec/schemas/profile.schema.json)
   * or the profile object itself. With neither `profile` nor `target`, the embedded reference
   * implementation is started on loopback for the run and closed after it.
   */
  profile?: string | TargetProfile;
  /** Base URL of the target; overrides the profile's base_url. */
  target?: string;
  /** Where BAAS_CLIENT*_ID/SECRET credentials are read from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Directory a relative profile path is resolved against (default process.cwd()). */
  cwd?: string;
  /** Check selection: exact ids, prefixes (`errors.token.*`) or globs; all checks when absent. */
  checks?: string[];
  /** Shard `i/n` (or parsed) to split the checks deterministically across machines. */
  shard?: string | Shard;
  /** Receive every event (run-started, check-started, exchange, check-finished, run-finished) in order. */
  onEvent?: (event: RunEvent) => void | Promise<void>;
  /** Reporters (ConsoleReporter, JsonReporter, JunitReporter, HtmlReporter or your own); none by default. */
  reporters?: Reporter[];
  /** Called once the target profile is resolved, before any check runs. */
  onTarget?: (target: { profile: ResolvedProfile; embedded: boolean }) => void;
  /** Model and check list to use instead of the packaged ones (tests, custom suites). */
  model?: Model;
  checkList?: Check[];
}

export interface ConformanceResult extends RunOutcome {
  /** The target the run went to (secrets are not included). */
  target: { baseUrl: string; name?: string; embedded: boolean };
}

/** Runs the conformance checks against a target (default: the embedded reference) and returns the outcome. */
export async function runConformance(options: ConformanceOptions = {}): Promise<ConformanceResult> {
  const { profile: profileInput, target, env = process.env, cwd = process.cwd(), checks: checkIds, onEvent, reporters = [], onTarget, model: givenModel, checkList, ...run } = options;
  const shard = parseShard(options.shard);
  let chosen: Target | undefined;
  try {
    // The embedded reference gets a one-second token window (published in its profile), so the
    // rate-limit check recovers in a second.
    chosen = await resolveTarget({ profile: profileInput, target, env, cwd, reference: { rateLimit: EMBEDDED_RUN_RATE_LIMIT } });
    const { profile, embedded } = chosen;
    onTarget?.({ profile, embedded });
    const model = givenModel ?? (await loadModel());
    const checks = checkList ?? (await loadChecks());
    const all = onEvent ? [...reporters, { onEvent }] : reporters;
    const outcome = await runChecks({ ...run, env, profile, model, shard, checkIds }, checks, all);
    return { ...outcome, target: { baseUrl: profile.base_url, ...(profile.name ? { name: profile.name } : {}), embedded } };
  } catch (err) {
    // Messages may quote the target; mask with the profile's secrets before they reach a caller's log.
    if (err instanceof Error && chosen) err.message = maskSecrets(err.message, chosen.profile);
    throw err;
  } finally {
    await chosen?.close();
  }
}
