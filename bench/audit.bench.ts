// The client audit's front door (src/audit/front.ts: record, plan, forward) against the reference it
// forwards to, in the same run with the same autocannon settings: GET /api/v1/user with an S2S token,
// X-User-Id and X-Chain-Id. The ratio audit/direct is the cost of recording every exchange; a client
// audit is a functional test, so the target only guards against an accidental slowdown.

import autocannon from 'autocannon';
import { request } from 'undici';
import { startAudit } from '../src/audit/index.ts';
import { createUserRequest, s2sUserHeaders, tokenRequest, userIdOf } from '../src/client/credentials.ts';
import { loadModel } from '../src/model/index.ts';
import { startReference } from '../src/reference/index.ts';

export const AUDIT_BENCH_TARGET = 0.2;

/** No adverse condition, long-lived tokens: the bench measures the front door, not the plan. */
const QUIET = { token_bursts: [], retry_after: [], other_burst: null, stall: null, scale: { token_lifetime_seconds: 3600, refresh_buffer_seconds: 300 } };

function run(url: string, headers: Record<string, string>, connections: number, duration: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, headers, connections, duration, pipelining: 1 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

export interface AuditBenchResult {
  direct: { rps: number; p99Ms: number; non2xx: number };
  audit: { rps: number; p99Ms: number; non2xx: number };
  ratio: number;
  target: number;
}

/** A token and a user on `base`, and the headers of the read the bench sends. */
async function readHeaders(base: string, creds: { client_id: string; client_secret: string }, chainId: string): Promise<Record<string, string>> {
  const model = await loadModel();
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await request(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const json: unknown = await r.body.json();
    if (r.statusCode !== 200 || json === null || typeof json !== 'object') throw new Error(`${path}: ${r.statusCode} ${JSON.stringify(json)}`);
    return Object.fromEntries(Object.entries(json));
  };
  const tokenReq = tokenRequest(model, creds);
  const tok = await post(tokenReq.path, tokenReq.body);
  const userReq = createUserRequest(model, { email: 'bench@example.com', country: 'DE', address: `0x${'2'.repeat(40)}` });
  const user = await post(userReq.path, userReq.body, { authorization: `Bearer ${String(tok.access_token)}`, [model.auth.chain_header]: chainId });
  return s2sUserHeaders(model, String(tok.access_token), userIdOf(model, user)!, chainId);
}

export async function benchAudit(opts: { durationSec?: number; connections?: number } = {}): Promise<AuditBenchResult> {
  const duration = opts.durationSec ?? 5;
  const connections = opts.connections ?? 10;
  const path = (await loadModel()).operation('getUserV1').path;
  const ref = await startReference();
  const audit = await startAudit({ plan: QUIET });
  try {
    const direct = { url: `${ref.profile.base_url}${path}`, headers: await readHeaders(ref.profile.base_url, ref.profile.clients[0], ref.profile.chain_id!) };
    const front = { url: `${audit.profile.base_url}${path}`, headers: await readHeaders(audit.profile.base_url, audit.profile.credentials, audit.profile.chain_id) };
    await run(direct.url, direct.headers, connections, 1);
    await run(front.url, front.headers, connections, 1);
    const d = await run(direct.url, direct.headers, connections, duration);
    const a = await run(front.url, front.headers, connections, duration);
    const s = (r: autocannon.Result) => ({ rps: r.requests.average, p99Ms: r.latency.p99, non2xx: r.non2xx });
    return { direct: s(d), audit: s(a), ratio: a.requests.average / d.requests.average, target: AUDIT_BENCH_TARGET };
  } finally {
    await audit.close();
    await ref.close();
  }
}
