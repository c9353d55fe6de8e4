// Pacing below a known limit. Section 8 limits the token endpoint per IP and per client without
// numbers; a profile that gives them (rate_limit.per_ip, per_client, window_seconds) lets the run stay
// below them instead of meeting 429s and sleeping out Retry-After. A sliding window of at most
// PACE_SHARE of the lower limit holds every fixed window of the same length under the limit too.
// Requests about the limit itself (noRetry: the rate-limit checks) are neither held nor counted
// (HttpSession.pace): those checks still reach the limit, and wait for the target to recover.
// Without the numbers, a 429 to an ordinary token request shows a limit (learned-limit.ts) and the same
// pacer then holds the run below that.

import type { ResolvedProfile } from '../profile/types.ts';

/** The share of the documented limit the run allows itself per window. */
export const PACE_SHARE = 0.8;

export class Pacer {
  /**
   * Requests counted in the window: each from its send until a window after its answer (the target
   * counted it somewhere in between, so a sliding window of the target's holds too). In flight: Infinity.
   */
  private readonly counted: { until: number }[] = [];
  /** Waiters woken when an answer comes (an in-flight request starts its last window). */
  private wake: (() => void)[] = [];

  constructor(readonly perWindow: number, readonly windowMs: number) {}

  /** The pacer of the profile's documented token limits, or undefined when it documents none. */
  static forProfile(profile: Pick<ResolvedProfile, 'rate_limit'>): Pacer | undefined {
    const rl = profile.rate_limit;
    const limits = [rl?.per_ip, rl?.per_client].filter((n): n is number => typeof n === 'number' && n > 0);
    if (!rl?.window_seconds || rl.window_seconds <= 0 || limits.length === 0) return undefined;
    return new Pacer(Math.max(1, Math.floor(Math.min(...limits) * PACE_SHARE)), rl.window_seconds * 1000);
  }

  private count(): () => void {
    const entry = { until: Infinity };
    this.counted.push(entry);
    return () => {
      entry.until = performance.now() + this.windowMs;
      for (const w of this.wake.splice(0)) w();
    };
  }

  /** Resolves when one more request keeps the window under the pace, counted; call the result on its answer. */
  async take(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      const now = performance.now();
      for (let i = this.counted.length - 1; i >= 0; i--) if (this.counted[i].until <= now) this.counted.splice(i, 1);
      if (this.counted.length < this.perWindow) return this.count();
      const next = Math.min(...this.counted.map((c) => c.until));
      // All in flight: the first answer starts a window; else the earliest window ends (+1 ms: it has ended when the timer fires).
      // Unref'd: a timer the answer made moot must not hold the process open.
      signal?.throwIfAborted();
      await this.waitFor(Number.isFinite(next) ? next - now + 1 : this.windowMs, signal);
    }
  }

  /**
   * Until an answer wakes the waiters, `ms` pass, or `signal` aborts; whichever wins, the timer, the abort
   * listener and this waiter's wake-up are removed, so many held requests leave nothing behind.
   */
  private waitFor(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (err?: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.wake.indexOf(wake);
        if (i >= 0) this.wake.splice(i, 1);
        if (err) reject(err);
        else resolve();
      };
      const wake = () => done();
      const onAbort = () => done(signal!.reason);
      const timer = setTimeout(done, ms);
      timer.unref();
      this.wake.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
