import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { loadConfig, loadProfile, maskSecrets, resolveProfile } from './index.ts';

const base = { base_url: 'http://127.0.0.1:1/', clients: [{ client_id: 'c1', client_secret: 's3cret-one' }] };

function configError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected ConfigError');
}

describe('resolveProfile', () => {
  it('fills defaults and trims trailing slashes', () => {
    const p = resolveProfile(base, { env: {} });
    expect(p.chain_id).toBe('84532');
    expect(p.operations).toEqual({});
    expect(p.base_url).toBe('http://127.0.0.1:1');
  });

  it('names the offending field in one line', () => {
    const msg = configError(() => resolveProfile({ ...base, clients: [{ client_id: 'x', client_secret: 5 }] }, { env: {} }));
    expect(msg).toContain('profile.clients[0].client_secret');
    expect(msg).not.toContain('\n');
    expect(configError(() => resolveProfile({ clients: base.clients }, { env: {} }))).toContain('base_url');
    expect(configError(() => resolveProfile({ ...base, chain_id: 'base' }, { env: {} }))).toContain('profile.chain_id');
    expect(configError(() => resolveProfile({ ...base, bogus: 1 }, { env: {} }))).toContain('profile.bogus: unknown field');
    expect(configError(() => resolveProfile({ ...base, operations: { blockCard: { method: 'POST' } } }, { env: {} }))).toContain(
      'profile.operations.blockCard.path is required',
    );
    expect(configError(() => resolveProfile({ base_url: 'http://x' }, { env: {} }))).toContain('BAAS_CLIENT_ID');
  });

  it('takes credentials and target from overrides', () => {
    const p = resolveProfile(undefined, {
      target: 'http://localhost:9',
      env: { BAAS_CLIENT_ID: 'a', BAAS_CLIENT_SECRET: 'sa', BAAS_CLIENT2_ID: 'b', BAAS_CLIENT2_SECRET: 'sb' },
    });
    expect(p.base_url).toBe('http://localhost:9');
    expect(p.clients).toEqual([
      { client_id: 'a', client_secret: 'sa' },
      { client_id: 'b', client_secret: 'sb' },
    ]);
    const q = resolveProfile(base, { env: { BAAS_CLIENT_SECRET: 'from-env' } });
    expect(q.clients[0]).toEqual({ client_id: 'c1', client_secret: 'from-env' });
  });

  it('loadProfile reports unreadable and invalid files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-prof-'));
    await writeFile(join(dir, 'bad.json'), '{ nope');
    await expect(loadProfile(join(dir, 'bad.json'))).rejects.toThrow(/not valid JSON/);
    await expect(loadProfile(join(dir, 'missing.json'))).rejects.toThrow(/no such file/);
    await writeFile(join(dir, 'ok.json'), JSON.stringify(base));
    expect((await loadProfile(join(dir, 'ok.json'), { env: {} })).clients[0].client_id).toBe('c1');
  });
});

describe('loadConfig', () => {
  it('reads the cwd file, resolves profile relative to it, rejects unknown keys', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bc-cfg-'));
    expect(await loadConfig({ cwd: dir })).toEqual({});
    await writeFile(join(dir, 'baas-conform.config.json'), JSON.stringify({ profile: 'p.json', seed: 7 }));
    expect(await loadConfig({ cwd: dir })).toEqual({ profile: join(dir, 'p.json'), seed: 7 });
    await writeFile(join(dir, 'x.json'), JSON.stringify({ sed: 7 }));
    await expect(loadConfig({ cwd: dir, file: 'x.json' })).rejects.toThrow(/config.sed: unknown field/);
    await expect(loadConfig({ cwd: dir, file: 'nope.json' })).rejects.toThrow(ConfigError);
  });
});

describe('maskSecrets', () => {
  const profile = {
    ...base,
    clients: [...base.clients, { client_id: 'c2', client_secret: 'другой-secret' }],
    s2s_signing_secret: 'hmac-signing-key',
    user_token_signing_secret: 'user.key+(x)',
  };
  it('masks client secrets, signing secrets and bearer tokens', () => {
    const text = [
      `{"client_id":"c1","client_secret":"s3cret-one"}`,
      `client_secret=другой-secret&x=1`,
      `Authorization: Bearer abc.def-ghi`,
      `Identity: bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.sig`,
      `key hmac-signing-key and user.key+(x)`,
      `{"access_token":"opaque-token-value","token_type":"Bearer"}`,
    ].join('\n');
    const out = maskSecrets(text, profile);
    for (const s of ['s3cret-one', 'другой-secret', 'abc.def-ghi', 'eyJhbGci', 'hmac-signing-key', 'user.key+(x)', 'opaque-token-value']) {
      expect(out).not.toContain(s);
    }
    expect(out).toContain('Bearer ***');
    expect(out).toContain('"client_id":"c1"');
    expect(out).toContain('"token_type":"Bearer"');
  });
  it('masks extra run-time secrets', () => {
    expect(maskSecrets('the token is tok-12345', undefined, ['tok-12345'])).toBe('the token is ***');
  });
});
