// Which answers the user-token walk (AUTH-USER-TOKEN-USE on every x-auth user route) counts as a
// credential refusal: a section 7 credentials row by status, reason and message, from the real model.
import { describe, expect, it } from 'vitest';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import { loadModel } from '../../src/model/index.ts';
import type { ErrorRuleId } from '../../src/model/types.ts';
import { credentialRow } from './user-token-routes.ts';

const answer = (status: number, json: unknown) => ({ status, json, text: JSON.stringify(json), headers: {} }) as unknown as HttpResponse;

describe('credentialRow', () => {
  it('names the S2S, user-token and identity-provider rows the answer is, and nothing else', async () => {
    const model = await loadModel();
    const ctx = { model } as unknown as CheckContext;
    const row = (id: ErrorRuleId) => {
      const r = model.errorRule(id);
      return answer(r.status, { error_reason: r.reason, error_description: r.message, error_category: { category: r.category, http_status_code: r.status }, error_details: [] });
    };
    expect(credentialRow(ctx, row('ERR-S2S-USER-IDENTIFIER-MISSING'))?.table).toBe('s2s');
    expect(credentialRow(ctx, row('ERR-S2S-AUTH-HEADER-MISSING'))?.table).toBe('s2s');
    expect(credentialRow(ctx, row('ERR-USER-TOKEN-EXPIRED'))?.table).toMatch(/^(s2s|user_token)$/);
    expect(credentialRow(ctx, row('ERR-IDP-IDENTITY-HEADER-MISSING'))?.table).toBe('idp');
    // A refusal of the input (a made-up id, an empty body) is no credentials row.
    expect(credentialRow(ctx, row('ERR-3DS-NOT-FOUND'))).toBeUndefined();
    expect(credentialRow(ctx, answer(400, { error_reason: 'ErrorMissingField', error_description: 'card_name is required' }))).toBeUndefined();
    expect(credentialRow(ctx, answer(404, { error_reason: 'ErrorNotFound', error_description: 'card not found' }))).toBeUndefined();
    expect(credentialRow(ctx, answer(200, { id: 'x' }))).toBeUndefined();
  });
});
