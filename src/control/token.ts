// `{{s2s_token}}` in an adapter file: vendors' sandbox-simulation calls usually take the partner's
// own S2S token. Minted once with profile.clients[0] through POST /api/v1/token (grant type from the
// model, never a literal) and kept by a TokenSource (the section 8 refresh buffer); the client masks it.

import type { HttpClient } from '../checks/types.ts';
import { mintToken } from '../client/mint.ts';
import { TokenSource } from '../client/token-source.ts';
import { operationLabel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';

export function s2sTokenSource(model: Pick<Model, 'grantType' | 'refreshBufferSeconds' | 'tokenValiditySeconds' | 'operation'>, profile: Pick<ResolvedProfile, 'clients'>): (http: HttpClient) => Promise<string> {
  const source = new TokenSource<HttpClient>({
    model,
    mint: async (http) => {
      const { issued, res } = await mintToken(http, model, profile.clients[0]);
      if (!issued) throw new Error(`{{s2s_token}}: ${operationLabel(model.operation('createToken'))} for profile.clients[0] answered HTTP ${res.status}; check profile.clients[0]`);
      return issued;
    },
  });
  return (http) => source.get(http);
}
