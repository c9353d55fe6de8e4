import { describe, expect, it } from 'vitest';
import { ModelError } from '../errors/index.ts';
import { specFactsOf } from './facts.ts';
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
