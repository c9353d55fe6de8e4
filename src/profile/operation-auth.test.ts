// profile.operation_auth at load: only the operations whose authentication the spec does not show
// (from the model), known modes, headers from the environment, header values masked.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import { maskSecrets, resolveProfile } from './index.ts';

const base = { base_url: 'http://127.0.0.1:1', clients: [{ client_id: 'c1', client_secret: 's3cret-one' }] };

async function refused(raw: object, env: Record<string, string> = {}): Promise<string> {
  const { operations } = await loadModel();
  try {
    resolveProfile(raw, { env, operations });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(2);
    return (err as Error).message;
  }
  throw new Error('expected ConfigError');
}

describe('profile.operation_auth', () => {
  it('accepts each mode for an x-auth-unspecified operation', async () => {
    const { operations } = await loadModel();
    const p = resolveProfile({ ...base, operation_auth: { tokenizeCard: { mode: 's2s', client: 0 }, loginCorporate: { mode: 'none' }, registerCorporate: { mode: 'user' } } }, { env: {}, operations });
    expect(p.operation_auth?.tokenizeCard).toEqual({ mode: 's2s', client: 0 });
  });

  it('refuses an operation whose authentication the spec shows, naming the ones it takes (from the model)', async () => {
    const msg = await refused({ ...base, operation_auth: { getConfig: { mode: 's2s' } } });
    expect(msg).toMatch(/operation_auth\.getConfig: the spec shows how getConfig authenticates/);
    expect(msg).toContain('tokenizeCard, registerCorporate, loginCorporate');
  });

  it('refuses an unknown operation, an unknown mode, headers mode without headers, and a client the profile lacks', async () => {
    expect(await refused({ ...base, operation_auth: { tokenise: { mode: 's2s' } } })).toContain('"tokenise" is not an operationId');
    expect(await refused({ ...base, operation_auth: { tokenizeCard: { mode: 'basic' } } })).toContain('profile.operation_auth.tokenizeCard.mode');
    expect(await refused({ ...base, operation_auth: { tokenizeCard: { mode: 'headers' } } })).toContain('mode "headers" needs headers');
    expect(await refused({ ...base, operation_auth: { tokenizeCard: { mode: 's2s', client: 1 } } })).toContain('client 1 is not in profile.clients');
    expect(await refused({ ...base, operation_auth: { tokenizeCard: { mode: 'none', headers: { a: 'b' } } } })).toContain('headers are sent only in mode "headers"');
  });

  it('reads {{env.NAME}} at load, refuses an unset one, and masks the value', async () => {
    const { operations } = await loadModel();
    const raw = { ...base, operation_auth: { tokenizeCard: { mode: 'headers', headers: { 'X-Api-Key': 'ApiKey {{env.PCI_KEY}}' } } } };
    const p = resolveProfile(raw, { env: { PCI_KEY: 'k-live-12345' }, operations });
    expect(p.operation_auth?.tokenizeCard.headers).toEqual({ 'X-Api-Key': 'ApiKey k-live-12345' });
    const masked = maskSecrets('x-api-key: ApiKey k-live-12345; echoed k-live-12345', p);
    expect(masked).not.toContain('k-live-12345');
    expect(await refused(raw)).toMatch(/operation_auth\.tokenizeCard\.headers\.X-Api-Key reads \{\{env\.PCI_KEY\}\}, but the environment variable PCI_KEY is not set/);
  });
});
