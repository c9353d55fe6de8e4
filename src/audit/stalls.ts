// The audit's own event-loop stalls. A request that reaches the audit while its event loop is blocked
// (a long callback, a loaded host that deschedules the process) is recorded when the loop runs again,
// so its recorded start is late by up to the stall. The timing judges (backoff, refresh buffer, request
// timeout) ask when a request was sent at the earliest, so that a stall of the audit's own never shows
// as a client that waited: a client that retries at once cannot reach a growth bound through stalls.

/** A span (epoch ms, Date.now() like every recorded time) in which the audit's event loop did not run. */
export interface Stall {
  fromMs: number;
  toMs: number;
}

export interface StallMonitorOptions {
  /** Tick period (ms). */
  intervalMs?: number;
  /** A tick this much later than due is a stall (shorter lags are scheduling noise). */
  thresholdMs?: number;
  /** Stalls kept at most (the oldest are dropped). */
  max?: number;
}

export interface StallMonitor {
  /** The stalls seen so far, oldest first (a copy). */
  stalls(): Stall[];
  stop(): void;
}

/** Ticks every intervalMs; a tick due at T that runs at T + lag (lag >= thresholdMs) records the stall [T, T + lag]. */
export function startStallMonitor(o: StallMonitorOptions = {}): StallMonitor {
  const intervalMs = o.intervalMs ?? 10;
  const thresholdMs = o.thresholdMs ?? 20;
  const max = o.max ?? 10_000;
  const seen: Stall[] = [];
  let due = Date.now() + intervalMs;
  const timer = setInterval(() => {
    const now = Date.now();
    if (now - due >= thresholdMs) {
      seen.push({ fromMs: due, toMs: now });
      if (seen.length > max) seen.shift();
    }
    due = now + intervalMs;
  }, intervalMs);
  timer.unref();
  return {
    stalls: () => seen.slice(),
    stop: () => clearInterval(timer),
  };
}

/**
 * Slack after a stall ends (ms): a request read in the loop turn that ends a stall is recorded a few
 * callbacks after it, before or after the monitor's own tick.
 */
export const STALL_SLACK_MS = 25;

/**
 * The earliest a request recorded at `atMs` may have been sent: the start of the stall it was recorded
 * in or just after (stalls closer together than the slack count as one), or `atMs` itself.
 */
export function sentNoEarlierThan(stalls: readonly Stall[], atMs: number, slackMs = STALL_SLACK_MS): number {
  // Stalls are in time order: find the last one that began before atMs, then walk back while they chain.
  let lo = 0;
  let hi = stalls.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (stalls[mid].fromMs < atMs) lo = mid + 1;
    else hi = mid;
  }
  let earliest = atMs;
  for (let i = lo - 1; i >= 0; i--) {
    const s = stalls[i];
    if (s.toMs + slackMs < earliest) break;
    earliest = Math.min(earliest, s.fromMs);
  }
  return earliest;
}
