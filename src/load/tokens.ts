// S2S tokens during a load run, kept the way section 8 recommends: cached, and refreshed the
// recommended buffer (model.limits.token_refresh_buffer) before expires_at. The refresh runs in the
// background; requests keep the current token until the new one arrives.

import type { Model } from '../model/index.ts';
import { issueToken, type IssuedToken, type SetupHttp } from './setup.ts';

export function refreshBufferSec(model: Model): number {
  return model.refreshBufferSeconds();
}

export class TokenKeeper {
  /** Bumped on every new token, so request builders can cache headers per version. */
  version = 0;
  refreshes = 0;
  failures = 0;
  readonly issued: string[] = [];
  private current: IssuedToken;
  private pending: Promise<void> | undefined;
  private readonly bufferSec: number;

  private constructor(
    private readonly s: SetupHttp,
    first: IssuedToken,
    private readonly now: () => number,
  ) {
    this.current = first;
    this.issued.push(first.token);
    this.bufferSec = refreshBufferSec(s.model);
  }

  static async start(s: SetupHttp, now: () => number = () => Date.now() / 1000): Promise<TokenKeeper> {
    return new TokenKeeper(s, await issueToken(s, s.profile.clients[0]), now);
  }

  /** The token to send now; starts a background refresh once inside the refresh buffer. */
  token(): string {
    const exp = this.current.expires_at;
    if (exp !== undefined && !this.pending && this.now() >= exp - this.bufferSec) this.refresh();
    return this.current.token;
  }

  private refresh(): void {
    this.pending = issueToken(this.s, this.s.profile.clients[0])
      .then((t) => {
        this.current = t;
        this.issued.push(t.token);
        this.version++;
        this.refreshes++;
      })
      .catch(() => {
        this.failures++;
      })
      .finally(() => {
        // After a failure, wait a little before trying again rather than on every request.
        setTimeout(() => (this.pending = undefined), this.failures ? 1000 : 0).unref();
      });
  }

  async settle(): Promise<void> {
    await this.pending;
  }
}
