// Load setup sends through src/client, the stack the conformance checks use: a target under a path
// prefix is reached, 429s are waited out by the client (Retry-After honoured) and bounded, the token
// answer is read by client/mint.ts, the user id through the model's alias, an operation whose path the
// spec does not show is located from profile.operations, and every failure is a typed error.
// Loopback servers that misbehave on purpose.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loopback } from '../client/testing.ts';
import { ConfigError, CredentialsError, TargetUnreachableError } from '../errors/index.ts';
import { loadModel, type Model } from '../model/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { READ_RETRIES, readBack } from './read-back.ts';
import { createUser, issueToken, openSetup, operation, type SetupHttp } from './setup.ts';

let model: Model;
beforeAll(async () => {
  model = await loadModel();
});

const lb = loopback();
const opened: SetupHttp[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.session.close()));
  await lb.close();
});

function setup(base: string, extra: Record<string, unknown> = {}, maxBodyBytes?: number): SetupHttp {
  const profile = resolveProfile({ base_url: base, clients: [{ client_id: 'cid', client_secret: 'super-secret-1' }], ...extra }, { env: {} });
  const s = openSetup({ profile, timeoutMs: 5_000, model, ...(maxBodyBytes ? { maxBodyBytes } : {}) });
  opened.push(s);
  return s;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
/** A target under /sandbox answering with `handler`; `seen` lists the paths it was asked for. */
async function target(handler: Handler): Promise<{ base: string; seen: string[] }> {
  const seen: string[] = [];
  const url = await lb.serve((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      handler(req, res, body);
    });
  });
  return { base: `${url}/sandbox`, seen };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

describe('load setup over src/client', () => {
  it('waits out 429s on the token request (Retry-After honoured), under the base URL path, and reads the token answer', async () => {
    let tokens = 0;
    const t = await target((req, res, body) => {
      if (++tokens <= 2) return json(res, 429, { error_reason: 'ErrorTooManyRequests' }, { 'retry-after': '0' });
      expect(JSON.parse(body)).toMatchObject({ client_id: 'cid', client_secret: 'super-secret-1', grant_type: model.grantType() });
      json(res, 200, { access_token: 'tok-abcdefgh', expires_at: 4_000_000_000 });
    });
    const s = setup(t.base);
    expect(await issueToken(s, s.profile.clients[0])).toEqual({ token: 'tok-abcdefgh', expiresAt: 4_000_000_000 });
    expect(t.seen).toEqual(Array(3).fill(`POST /sandbox${model.operation('createToken').path}`));
    // The session learned the token: it is masked wherever it reappears.
    expect(s.session.mask('Bearer tok-abcdefgh')).not.toContain('tok-abcdefgh');
  });

  it('a target still answering 429 past the client bound stops setup as unreachable (exit 3), naming the rate limit', async () => {
    const t = await target((_req, res) => json(res, 429, {}, { 'retry-after': '0' }));
    const s = setup(t.base);
    const err = await issueToken(s, s.profile.clients[0]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetUnreachableError);
    expect((err as Error).message).toMatch(/createToken during scenario setup: .*answered 429/);
    expect(t.seen.length).toBe(s.session.retry.maxRetries + 1);
  });

  it('rejected credentials are a credentials error; a closed port is unreachable', async () => {
    const t = await target((_req, res) => json(res, 401, { error_reason: 'ErrorUnauthorized' }));
    const s = setup(t.base);
    await expect(issueToken(s, s.profile.clients[0])).rejects.toThrow(CredentialsError);
    const closed = setup(await lb.closedPort());
    await expect(issueToken(closed, closed.profile.clients[0])).rejects.toThrow(TargetUnreachableError);
  });

  it('reads the user id under the deprecated alias name too; an answer without either name is a config error naming both from the model', async () => {
    let users = 0;
    const t = await target((_req, res) => (++users === 1 ? json(res, 201, { id: 'u-old-name' }) : json(res, 201, { name: 'x' })));
    const s = setup(t.base);
    expect(await createUser(s, 'tok')).toBe('u-old-name');
    const { new: preferred, old } = model.aliasRule('ALIAS-USER-READ-ID');
    await expect(createUser(s, 'tok')).rejects.toThrow(new ConfigError(`load: setup created a user but the answer carries no user id (${preferred} or ${old})`));
    expect(t.seen[0]).toBe(`POST /sandbox${model.operation('createUserV2').path}`);
  });

  it('an operation whose path the spec does not show is located from profile.operations, else a config error', async () => {
    const t = await target((_req, res) => json(res, 200, {}));
    expect(() => operation(setup(t.base), 'getRecipient')).toThrow(/profile\.operations\.getRecipient/);
    const located = setup(t.base, { operations: { getRecipient: { method: 'get', path: '/v9/recipient/{recipient_id}' } } });
    expect(operation(located, 'getRecipient')).toMatchObject({ method: 'GET', path: '/v9/recipient/{recipient_id}' });
  });

  it('a read-back waits out a few 429s, then could not read; a body over the bound could not read, never absent', async () => {
    const t = await target((req, res) => (req.url?.endsWith('/limited') ? json(res, 429, {}, { 'retry-after': '0' }) : json(res, 200, { padding: 'x'.repeat(4096) })));
    const s = setup(t.base, {}, 1024);
    expect(await readBack(s, 'GET', '/limited', {})).toEqual({ kind: 'unreadable', why: `HTTP 429 after ${READ_RETRIES} retries` });
    expect(t.seen.filter((x) => x.endsWith('/limited'))).toHaveLength(READ_RETRIES + 1);
    expect(await readBack(s, 'GET', '/big', {})).toEqual({ kind: 'unreadable', why: 'a body over the 1024-byte read-back bound, not read whole' });
  });
});
