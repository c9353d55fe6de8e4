// Throughput of the reference server's hot path (GET /api/v1/user with an S2S token, X-User-Id and
// X-Chain-Id) against a bare node:http server answering a small JSON body, in the same run and
// with the same autocannon settings. The ratio reference/bare is the figure of merit (target >= 0.6).

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
}

export interface BenchResult {
  bare: { rps: number; p99Ms: number; errors: number; non2xx: number };
  reference: { rps: number; p99Ms: number; errors: number; non2xx: number };
  ratio: number;
  target: number;
}

export const REFERENCE_BENCH_TARGET = 0.6;

function run(url: string, headers: Record<string, string>, connections: number, duration: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, headers, connections, duration, pipelining: 1 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

function summary(r: autocannon.Result) {
  return { rps: r.requests.average, p99Ms: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
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
  const ref = await startReference();
  const p = ref.profile;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await request(p.base_url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const json = (await r.body.json()) as any;
    if (r.statusCode !== 200) throw new Error(`${path}: ${r.statusCode} ${JSON.stringify(json)}`);
    return json;
  };
  const model = await loadModel();
  const tokenReq = tokenRequest(model, p.clients[0]);
  const tok = await post(tokenReq.path, tokenReq.body);
  const userReq = createUserRequest(model, { email: 'bench@example.com', country: 'DE', address: '0x' + '1'.repeat(40) });
  const user = await post(userReq.path, userReq.body, { authorization: `Bearer ${tok.access_token}` });
  const headers = s2sUserHeaders(model, tok.access_token, userIdOf(model, user)!, p.chain_id!);
  const readPath = model.operation('getUserV1').path;
  const sample = await request(`${p.base_url}${readPath}`, { headers });
  const sampleBody = await sample.body.text();
  const bare = await startBare(sampleBody);
  try {
    if (warmup > 0) {
      await run(bare.url, headers, connections, warmup);
      await run(`${p.base_url}${readPath}`, headers, connections, warmup);
    }
    const b = summary(await run(bare.url, headers, connections, duration));
    const r = summary(await run(`${p.base_url}${readPath}`, headers, connections, duration));
    return { bare: b, reference: r, ratio: r.rps / b.rps, target: REFERENCE_BENCH_TARGET };
  } finally {
    bare.server.closeAllConnections();
    await new Promise((r) => bare.server.close(r));
    await ref.close();
  }
}
