// S2S tokens during a load run, kept the way section 8 recommends by the shared TokenSource: cached,
// and refreshed the recommended buffer (model.refreshBufferSeconds()) before expires_at. The refresh
// runs in the background; requests keep the current token until the new one arrives.

import { TokenSource } from '../client/token-source.ts';
import type { Model } from '../model/index.ts';
import { issueToken, type SetupHttp } from './setup.ts';

export function refreshBufferSec(model: Model): number {
  return model.refreshBufferSeconds();
}

export class TokenKeeper extends TokenSource<void> {
  static async start(s: SetupHttp, now?: () => number): Promise<TokenKeeper> {
    const keeper = new TokenKeeper({
      model: s.model,
      ...(now ? { now } : {}),
      mint: () => issueToken(s, s.profile.clients[0]),
    });
    await keeper.get();
    return keeper;
  }

  /** The token to send now; starts a background refresh once inside the refresh buffer. */
  token(): string {
    return this.peek();
  }
}
