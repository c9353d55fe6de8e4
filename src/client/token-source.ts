// TokenSource: the one S2S token cache (section 5 tokens, kept as section 8 recommends): a token is
// reused until the refresh buffer (model.refreshBufferSeconds(), "5 minutes before expiry") before its
// expires_at, then minted again. Concurrent callers share one mint; a failed mint is not kept. A token
// answer without expires_at (section 5 says it carries one) is taken to live the section 8 S2S token
// validity (model.tokenValiditySeconds()), so every subsystem treats such a target alike.
import type { SpecFacts } from '../model/facts.ts';

export interface IssuedToken {
  token: string;
  /** Unix time in seconds (section 5 `expires_at`), when the answer carried one. */
  expiresAt?: number;
}

export interface TokenSourceOptions<A> {
  /** Mints a token; `arg` is what the caller hands get() (a check context, an HTTP client ...). */
  mint: (arg: A) => Promise<IssuedToken>;
  model: Pick<SpecFacts, 'refreshBufferSeconds' | 'tokenValiditySeconds'>;
  /** Our clock, Unix seconds (default Date.now()). */
  now?: () => number;
  /** After a failed background refresh, wait this long (ms) before the next one (default 1000). */
  retryDelayMs?: number;
}

interface Held {
  token: string;
  exp: number;
}

export class TokenSource<A = void> {
  /** Bumped on every new token, so request builders can cache headers per version. */
  version = 0;
  refreshes = 0;
  failures = 0;
  readonly issued: string[] = [];
  private held: Held | undefined;
  private pending: Promise<Held> | undefined;
  private backgroundUntil = 0;
  private readonly now: () => number;

  constructor(private readonly opts: TokenSourceOptions<A>) {
    this.now = opts.now ?? (() => Date.now() / 1000);
  }

  /** True while the held token is outside the refresh buffer; `aheadSeconds`: how far the target's clock runs ahead of ours. */
  private fresh(aheadSeconds = 0): boolean {
    return !!this.held && this.held.exp - this.opts.model.refreshBufferSeconds() - aheadSeconds > this.now();
  }

  private mint(arg: A): Promise<Held> {
    this.pending ??= this.opts
      .mint(arg)
      .then((t) => {
        const held = { token: t.token, exp: t.expiresAt ?? this.now() + this.opts.model.tokenValiditySeconds() };
        if (this.held) this.refreshes++;
        this.held = held;
        this.issued.push(t.token);
        this.version++;
        return held;
      })
      .finally(() => {
        this.pending = undefined;
      });
    return this.pending;
  }

  /** A token outside the refresh buffer: the held one, else a new one. */
  async get(arg: A, opts: { aheadSeconds?: number } = {}): Promise<string> {
    if (this.fresh(opts.aheadSeconds)) return this.held!.token;
    return (await this.mint(arg)).token;
  }

  /**
   * The held token without waiting (a load generator's hot path); inside the refresh buffer it starts
   * a refresh in the background and keeps answering with the held token until the new one arrives.
   * Call get() once first.
   */
  peek(arg: A): string {
    if (!this.held) throw new Error('TokenSource.peek before the first get()');
    if (!this.fresh() && !this.pending && this.now() * 1000 >= this.backgroundUntil) {
      this.mint(arg).catch(() => {
        this.failures++;
        this.backgroundUntil = this.now() * 1000 + (this.opts.retryDelayMs ?? 1000);
      });
    }
    return this.held.token;
  }

  /** Waits for a refresh in flight (its failure is counted, not thrown). */
  async settle(): Promise<void> {
    await this.pending?.catch(() => undefined);
  }
}
