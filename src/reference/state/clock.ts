// The server clock: real time plus an offset the test-control API moves (POST /clock/advance), and
// the timers the reference schedules (transfer settlement), cleared on close so none outlives it.

export class Clock {
  /** Milliseconds added to real time. */
  offsetMs = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  nowSec(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  /** Back to real time (control resetClock): every advance undone. */
  reset(): void {
    this.offsetMs = 0;
  }

  /** Runs `fn` after `ms` of real time (unref'd: it never keeps the process alive). */
  schedule(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref?.();
    this.timers.add(t);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
