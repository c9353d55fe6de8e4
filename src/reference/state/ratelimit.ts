// Fixed-window counters for the token endpoint (section 8: "limited per IP and per client"). Time is
// the reference's clock (state/clock.ts), so a test moves a window on with POST /clock/advance instead
// of sleeping through it.

export class FixedWindow {
  private readonly windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit at `now` (ms); returns 0 when allowed, else the seconds until the window resets (>= 1). */
  hit(key: string, now: number): number {
    let w = this.windows.get(key);
    // A window that starts after `now` began before the clock was set back (control resetClock): over.
    if (!w || now - w.start >= this.windowMs || now < w.start) {
      if (this.windows.size > 10_000) this.sweep(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    if (w.count <= this.limit) return 0;
    return Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
  }

  private sweep(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs || now < w.start) this.windows.delete(k);
  }
}

/** The token endpoint's two limiters (section 8: "limited per IP and per client"). */
export class TokenRateLimit {
  private readonly ip: FixedWindow;
  private readonly client: FixedWindow;
  constructor(
    readonly o: { perIp: number; perClient: number; windowMs: number },
    /** Current time in ms (the reference clock). */
    private readonly now: () => number = Date.now,
  ) {
    this.ip = new FixedWindow(o.perIp, o.windowMs);
    this.client = new FixedWindow(o.perClient, o.windowMs);
  }

  /** Counts one request for `key`; 0 when allowed, else whole seconds until its window resets. */
  hit(kind: 'ip' | 'client', key: string): number {
    return (kind === 'ip' ? this.ip : this.client).hit(key, this.now());
  }
}
