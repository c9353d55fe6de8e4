import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors/index.ts';
import { operationLabel, renderSpecText, specFactsOf } from './facts.ts';
import { loadModel } from './index.ts';

describe('spec facts read from the model', () => {
  it('gives section 4 grant type and the section 8 timeout and refresh buffer as spec/ holds them', async () => {
    const model = await loadModel();
    expect(model.grantType()).toBe('client_credentials');
    expect(model.requestTimeoutMs()).toBe(30_000);
    expect(model.refreshBufferSeconds()).toBe(300);
  });

  it('names the spec file when a fact is missing (a model from another --spec)', () => {
    const none = specFactsOf(new Map(), {});
    expect(() => none.grantType()).toThrow(ModelError);
    expect(() => none.grantType()).toThrow(/spec\/openapi.yaml.*grant_type/);
    expect(() => none.requestTimeoutMs()).toThrow(/spec\/rules\/limits.yaml.*request_timeout/);
    expect(() => none.refreshBufferSeconds()).toThrow(/token_refresh_buffer/);
  });
});

describe('renderSpecText', () => {
  it('renders operation, path, message and webhook placeholders from the model', async () => {
    const model = await loadModel();
    const text = renderSpecText('{op:createUserV1} and {path:getUserV2}: "{message:ERR-S2S-USER-NOT-FOUND}" on {webhook:user}', model);
    expect(text).toBe(`${operationLabel(model.operation('createUserV1'))} and ${model.operation('getUserV2').path}: "${model.errorRule('ERR-S2S-USER-NOT-FOUND').message}" on ${model.webhookPath('user')}`);
    expect(text).toMatch(/^POST \/api\/v1\/user and \/api\/v2\/user: "Requested user was not found" on \/v2\/webhooks\/user$/);
  });

  it('throws on an id the model does not have (a typo cannot render silently)', async () => {
    const model = await loadModel();
    expect(() => renderSpecText('{op:noSuchOperation}', model)).toThrow(/noSuchOperation/);
  });
});
