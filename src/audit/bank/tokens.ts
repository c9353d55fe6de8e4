// S2S token cache (section 5: cache the token, refresh it about 5 minutes before expiry; the audit
// publishes its scaled buffer as token_refresh_buffer_seconds). One refresh at a time; callers wait
// for it only once the cached token is about to expire.

import type { ClientMode } from './modes.ts';
import { pick, type Http } from './http.ts';

export interface TokenSource {
  url: string;
  /** The grant type the token endpoint requires (the request schema's enum). */
  grantType: string;
  clientId: string;
  clientSecret: string;
  bufferMs: number;
}

/**
 * While a refresh is under way the old token is still presented, but only in the first tenth of the
 * buffer: a loaded host may deliver a request late, and the audit judges a token presented in the last
 * half of the buffer as not renewed in time.
 */
const KEEP_USING = 0.9;

export class TokenManager {
  private token?: { value: string; expiresAtMs: number };
  private pending?: Promise<string>;
  constructor(private readonly http: Http, private readonly src: TokenSource, private readonly mode: ClientMode, private readonly extra: Record<string, unknown> = {}) {}

  private fetch(): Promise<string> {
    this.pending ??= (async () => {
      try {
        const r = await this.http.call({
          method: 'POST', url: this.src.url,
          body: { client_id: this.src.clientId, client_secret: this.src.clientSecret, grant_type: this.src.grantType, ...this.extra },
        });
        const token = pick(r.body, 'access_token');
        if (r.status !== 200 || typeof token !== 'string') throw new Error(`token endpoint answered ${r.status}`);
        this.token = { value: token, expiresAtMs: Number(pick(r.body, 'expires_at')) * 1000 };
        return token;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  async get(): Promise<string> {
    if (this.mode === 'token-per-call') return this.fetch();
    const t = this.token;
    const now = Date.now();
    if (t && this.mode === 'no-refresh') return t.value;
    if (t && now < t.expiresAtMs - this.src.bufferMs) return t.value;
    const refresh = this.fetch();
    if (t && now < t.expiresAtMs - KEEP_USING * this.src.bufferMs) {
      // The refresh goes on in the background; a failure shows on the next get().
      refresh.catch(() => {});
      return t.value;
    }
    return refresh;
  }

  /** Waits for a refresh under way (before the HTTP agent closes). */
  async settle(): Promise<void> {
    await this.pending?.catch(() => {});
  }

  /** After a 401: forget the token (the no-refresh client learns of expiry this way only). */
  invalidate(): void {
    this.token = undefined;
  }
}
