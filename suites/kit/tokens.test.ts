// The S2S token a check asks for is minted and read by src/client/mint.ts, and what goes wrong is the
// check's failed createToken step: a refusal names its status, a 2xx answer without a token says so.
// A loopback target answers the token request as each case needs.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import type { Check } from '../../src/checks/types.ts';
import { s2sToken } from './tokens.ts';

let tokenAnswer: { status: number; body: unknown } = { status: 200, body: {} };
let server: Server;
let baseUrl = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const { status, body } = req.url === '/api/v1/token' ? tokenAnswer : { status: 404, body: { error: 'not here' } };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const seen: string[] = [];
const check: Check = { id: 'kit.s2s-token', title: 'asks for an S2S token', area: 'kit', section: '5', rules: [], safe: true, run: async (ctx) => void seen.push(await s2sToken(ctx)) };

async function tokenCheck(clientId: string) {
  const out = await runConformance({ profile: { base_url: baseUrl, clients: [{ client_id: clientId, client_secret: 's' }] }, env: {}, checkList: [check], seed: 1 });
  return out.results[0];
}

describe('s2sToken', () => {
  it('a 2xx answer without access_token: the createToken step fails and says so', async () => {
    tokenAnswer = { status: 200, body: { token_type: 'Bearer' } };
    const r = await tokenCheck('no-token');
    expect(r.verdict).toBe('blocked');
    expect(r.blocked).toMatchObject({ operation: 'createToken', message: expect.stringMatching(/for profile\.clients\[0\]: the answer carries no access_token/) });
  });

  it('a refusal: the createToken step fails naming the status', async () => {
    tokenAnswer = { status: 403, body: { error: 'no' } };
    const r = await tokenCheck('refused');
    expect(r.verdict).toBe('blocked');
    expect(r.blocked?.message).toMatch(/expected a 2xx answer, got HTTP 403/);
  });

  it('a token answer: the check gets the token', async () => {
    tokenAnswer = { status: 200, body: { access_token: 'aGVhZA.Ym9keQ.c2ln', token_type: 'Bearer', expires_at: Math.floor(Date.now() / 1000) + 3600 } };
    const r = await tokenCheck('good');
    expect(r.verdict, r.failure?.message ?? r.blocked?.message).toBe('pass');
    expect(seen).toContain('aGVhZA.Ym9keQ.c2ln');
  });
});
