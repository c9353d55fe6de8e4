// Throughput of the reference server's hot path against a bare node:http server answering the same
// JSON body, in the same run and with the same autocannon settings. Two reads of GET /api/v1/user:
// - user token: `Authorization: Bearer <user token>` + X-Chain-Id (the token, verified once and then
//   cached by the reference, names the user);
// - identity header: an S2S token + X-User-Id + X-Chain-Id (section 5 "User identity headers").
// Rounds are interleaved (bare, user token, identity header, repeated) and each figure is the best of its
// rounds, so a burst of load from other processes on a shared machine lowers one round, not the ratio.
// The ratio reference/bare is the figure of merit (target >= 0.95); it is printed, never unit-tested.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { request } from 'undici';
import { startReference } from '../src/reference/index.ts';
import { createUserRequest, s2sUserHeaders, tokenRequest, userIdOf } from '../src/client/credentials.ts';
import { loadModel } from '../src/model/index.ts';

export interface BenchOptions {
  connections?: number;
  durationSec?: number;
  warmupSec?: number;
  /** Interleaved rounds; each figure is the best of them (default 3). */
  rounds?: number;
}

export interface Figure {
  rps: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface ReadFigure extends Figure {
  ratio: number;
}

export interface BenchResult {
  bare: Figure;
  /** GET /api/v1/user with a user token (cached verification). */
  userToken: ReadFigure;
  /** GET /api/v1/user with an S2S token and X-User-Id. */
  identityHeader: ReadFigure;
  target: number;
}

export const REFERENCE_BENCH_TARGET = 0.95;

function run(url: string, headers: Record<string, string>, connections: number, duration: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, headers, connections, duration, pipelining: 1 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

function summary(r: autocannon.Result): Figure {
  return { rps: r.requests.average, p99Ms: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
}

/** The best round by req/s; errors and non-2xx summed over every round (one bad answer is a miss). */
function best(rounds: Figure[]): Figure {
  const top = rounds.reduce((a, b) => (b.rps > a.rps ? b : a));
  return { ...top, errors: rounds.reduce((n, r) => n + r.errors, 0), non2xx: rounds.reduce((n, r) => n + r.non2xx, 0) };
}

async function startBare(body: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bare`, server };
}

export async function benchReference(opts: BenchOptions = {}): Promise<BenchResult> {
  const connections = opts.connections ?? 10;
  const duration = opts.durationSec ?? 5;
  const warmup = opts.warmupSec ?? 1;
  const rounds = Math.max(1, Math.floor(opts.rounds ?? 3));
  const ref = await startReference();
  const p = ref.profile;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await request(p.base_url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const json = (await r.body.json()) as any;
    if (r.statusCode !== 200) throw new Error(`${path}: ${r.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const model = await loadModel();
  const chain = model.auth.chain_header.toLowerCase();
  const walletHeader = model.auth.identity_headers.find((h) => /wallet/i.test(h))!.toLowerCase();
  const tokenReq = tokenRequest(model, p.clients[0]);
  const tok = await post(tokenReq.path, tokenReq.body);
  const address = '0x' + '1'.repeat(40);
  const userReq = createUserRequest(model, { email: 'bench@example.com', country: 'DE', address });
  const user = await post(userReq.path, userReq.body, { authorization: `Bearer ${tok.access_token}` });
  const identity = s2sUserHeaders(model, tok.access_token, userIdOf(model, user)!, p.chain_id!);
  const authorized = await post(model.operation('authorizeUser').path, undefined, { authorization: `Bearer ${tok.access_token}`, [walletHeader]: address, [chain]: p.chain_id! });
  const userToken = { authorization: `Bearer ${authorized.access_token}`, [chain]: p.chain_id! };
  const readUrl = `${p.base_url}${model.operation('getUserV1').path}`;
  const sample = await request(readUrl, { headers: identity });
  const sampleBody = await sample.body.text();
  const bare = await startBare(sampleBody);
  const scenarios = [
    { name: 'bare', url: bare.url, headers: identity },
    { name: 'userToken', url: readUrl, headers: userToken },
    { name: 'identityHeader', url: readUrl, headers: identity },
  ] as const;
  const seen: Record<(typeof scenarios)[number]['name'], Figure[]> = { bare: [], userToken: [], identityHeader: [] };
  try {
    if (warmup > 0) for (const s of scenarios) await run(s.url, s.headers, connections, warmup);
    for (let i = 0; i < rounds; i++) for (const s of scenarios) seen[s.name].push(summary(await run(s.url, s.headers, connections, duration)));
    const b = best(seen.bare);
    const read = (f: Figure[]): ReadFigure => {
      const r = best(f);
      return { ...r, ratio: r.rps / b.rps };
    };
    return { bare: b, userToken: read(seen.userToken), identityHeader: read(seen.identityHeader), target: REFERENCE_BENCH_TARGET };
  } finally {
    bare.server.closeAllConnections();
    await new Promise((r) => bare.server.close(r));
    await ref.close();
  }
}
