// The replay `history --classify` uses: one check, one run seed, against the target of the command
// (a profile, a URL, or the embedded reference), as `replay results.json --check ID` re-runs it.

import { runConformance } from '../api/conformance.ts';
import type { TargetProfile } from '../profile/types.ts';
import type { ReplayCheck } from './classify.ts';

export interface ReplayTarget {
  profile?: string | TargetProfile;
  target?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** fast-check runs per property: the nightly's own --runs, so a seed generates the same inputs. */
  numRuns?: number;
  signal?: AbortSignal;
}

export function targetReplay(t: ReplayTarget): ReplayCheck {
  return async (checkId, seed) => {
    const out = await runConformance({ profile: t.profile, target: t.target, env: t.env ?? {}, cwd: t.cwd, seed, checks: [checkId], ...(t.numRuns ? { numRuns: t.numRuns } : {}), ...(t.signal ? { signal: t.signal } : {}) });
    return out.results.find((r) => r.checkId === checkId)?.verdict ?? 'skip';
  };
}
