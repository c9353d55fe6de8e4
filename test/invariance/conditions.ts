// The conditions under which one target must get one verdict. Each is a way the world
// around a run gets worse while the target stays the same conforming reference: another process
// busy on every core, seconds of latency on every answer, a rate limiter refusing a random share of
// all requests (before they act, as a real one does), and all three at once.

import type { OperationId } from '../../src/model/types.ts';

export interface Condition {
  id: ConditionId;
  description: string;
  /** Busy-loop processes competing for the CPU (one per core on the 2-core CI machine). */
  busyProcesses: number;
  /** Every API answer is held a random 0..latencyMaxMs before it is sent ... */
  latencyMaxMs: number;
  /**
   * ... drawn as latencyMaxMs x u^latencyShape, u uniform in 0..1 (1: uniform). Above 1 most answers are
   * short and a few come near the maximum: a check's serial requests wait the mean, but a batch of
   * concurrent requests still waits for its slowest, near the maximum, and answers still overlap and
   * reorder.
   */
  latencyShape: number;
  /** This share of all requests is refused with 429 (section 7 body, Retry-After) instead of being relayed. */
  share429: number;
  /** Retry-After of those 429s, in seconds. */
  retryAfterS: number;
  /** Refuse only requests of these operations (default: every request). */
  operations429?: readonly OperationId[];
}

export type ConditionId = 'quiet' | 'busy' | 'latency' | 'rate-limited' | 'all';

const calm = { busyProcesses: 0, latencyMaxMs: 0, latencyShape: 1, share429: 0, retryAfterS: 1 };
/**
 * 0-2 s on every answer, u^3: a mean of 0.5 s (uniform: 1 s), a median of 0.25 s, one answer in eleven
 * over 1.5 s, and the slowest of 20 concurrent answers over 1.5 s in more than four batches in five.
 */
const rough = { latencyMaxMs: 2000, latencyShape: 3 };

export const CONDITIONS: Record<ConditionId, Condition> = {
  quiet: { ...calm, id: 'quiet', description: 'nothing else running, answers as fast as the reference gives them' },
  busy: { ...calm, id: 'busy', description: 'both cores busy with a competing process', busyProcesses: 2 },
  latency: { ...calm, ...rough, id: 'latency', description: '0-2 s random latency on every answer (mostly short, one in eleven over 1.5 s)' },
  'rate-limited': { ...calm, id: 'rate-limited', description: 'a random 10% of all answers are 429 with Retry-After 1', share429: 0.1 },
  all: { ...rough, id: 'all', description: 'all three at once', busyProcesses: 2, share429: 0.1, retryAfterS: 1 },
};

export const CONDITION_IDS = Object.keys(CONDITIONS) as ConditionId[];
