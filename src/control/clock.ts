// The target's clock moves (control advanceClock), per target instance, and their undoing at the end
// of a run (control resetClock). A sandbox whose clock a run left two days ahead fails the next run's
// time-based checks (its tokens minted at real time are already expired there), so the run undoes
// the moves when the adapter can, and otherwise says what it left and how to reset it.

import type { HttpClient } from '../checks/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import type { ControlAdapter } from './types.ts';

const moved = new Map<string, number>();

/** One target instance (a later target may reuse a base_url on a freed port, with other clients). */
export function clockKeyOf(profile: Pick<ResolvedProfile, 'base_url' | 'clients'>): string {
  return `${profile.base_url}|${profile.clients[0]?.client_id ?? ''}`;
}

export function recordClockMove(key: string, seconds: number): void {
  if (Number.isFinite(seconds) && seconds !== 0) moved.set(key, (moved.get(key) ?? 0) + seconds);
}

/** Seconds the target's clock was moved forward by this process and not yet undone. */
export function clockMoved(key: string): number {
  return moved.get(key) ?? 0;
}

/** What the run did about the clock it moved (results.json summary.sandbox.clock). */
export interface ClockCleanup {
  /** Seconds the clock stood ahead of real time before the clean-up (this process's moves). */
  advancedSeconds: number;
  restored: boolean;
  /** What was done, or what was left and how to reset it. */
  message: string;
}

/**
 * Undoes the clock moves on the target through the adapter's resetClock. Undefined when the clock
 * was not moved. Never throws: a failed reset is reported, it does not change any verdict.
 */
export async function restoreClock(adapter: ControlAdapter | undefined, http: HttpClient, key: string): Promise<ClockCleanup | undefined> {
  const ahead = clockMoved(key);
  if (!ahead || !adapter) return undefined;
  const left = (why: string): ClockCleanup => ({
    advancedSeconds: ahead,
    restored: false,
    message: `the run left the target's clock ${ahead} s ahead (control advanceClock): ${why}. Its next run fails time-based checks until the clock is back at real time: map the control operation resetClock in the adapter (spec/control.yaml), or reset or restart the sandbox`,
  });
  if (!adapter.supports('resetClock')) return left(`${adapter.source} does not perform resetClock`);
  try {
    const res = await adapter.call(http, 'resetClock', { body: {} });
    if (!res.ok) return left(`resetClock through the ${adapter.source} answered HTTP ${res.status}`);
  } catch (err) {
    return left(`resetClock through the ${adapter.source} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  moved.delete(key);
  return { advancedSeconds: ahead, restored: true, message: `the target's clock, moved ${ahead} s ahead by the run, was reset to real time (control resetClock through the ${adapter.source})` };
}
