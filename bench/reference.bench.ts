// Throughput of the reference server's hot path against a bare node:http server answering the same
// JSON body, in the same run and with the same autocannon settings. Each server runs in a child process
// (bench/reference.child.ts), so its CPU per request is its own. Two reads of GET /api/v1/user:
// - user token: `Authorization: Bearer <user token>` + X-Chain-Id (the token, verified once and then
//   cached by the reference, names the user);
// - identity header: an S2S token + X-User-Id + X-Chain-Id (section 5 "User identity headers").
// Rounds are interleaved (bare, user token, identity header, then the reverse order); req/s is the best round, CPU per
// request the least, so a burst of load from other processes lowers one round, not the ratio. The
// ratios reference/bare are the figures of merit (target >= 0.95); printed, never unit-tested.

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { request } from 'undici';
import { createUserRequest, s2sUserHeaders, tokenRequest, userIdOf } from '../src/client/credentials.ts';
import { loadModel } from '../src/model/index.ts';
import type { TargetProfile } from '../src/profile/types.ts';

export interface BenchOptions {
  connections?: number;
  durationSec?: number;
  warmupSec?: number;
  /** Interleaved rounds (default 3). */
  rounds?: number;
}

export interface Figure {
  rps: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Server CPU (user + system) per request in microseconds, the least of the rounds. */
  cpuUsPerReq: number;
}

export interface ReadFigure extends Figure {
  /** req/s over bare req/s. */
  ratio: number;
  /** Bare CPU per request over this server's (1: as cheap as bare node:http). */
  cpuRatio: number;
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
const CHILD = new URL('./reference.child.ts', import.meta.url).pathname;

interface Server {
  child: ChildProcess;
  baseUrl: string;
  profile?: TargetProfile;
  cpuUs(): Promise<number>;
}

async function startServer(args: string[]): Promise<Server> {
  // process.execArgv carries tsx's loader, so the child runs the TypeScript sources like this process.
  const child = spawn(process.execPath, [...process.execArgv, CHILD, ...args], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (c) => reject(new Error(`bench server exited ${c}`)));
  });
  const first = JSON.parse(line) as TargetProfile;
  const cpuUs = () =>
    new Promise<number>((resolve) => {
      child.once('message', (u) => resolve((u as NodeJS.CpuUsage).user + (u as NodeJS.CpuUsage).system));
      child.send('cpu');
    });
  return { child, baseUrl: first.base_url, profile: args[0] === 'reference' ? first : undefined, cpuUs };
}

function run(url: string, headers: Record<string, string>, connections: number, duration: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon({ url, headers, connections, duration, pipelining: 1 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** One autocannon run with the server's CPU over it. */
async function measure(server: Server, url: string, headers: Record<string, string>, connections: number, duration: number): Promise<Figure> {
  const c0 = await server.cpuUs();
  const r = await run(url, headers, connections, duration);
  const cpu = (await server.cpuUs()) - c0;
  return { rps: r.requests.average, p99Ms: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, cpuUsPerReq: cpu / Math.max(1, r.requests.total) };
}

/** The best round by req/s, the least CPU per request; errors and non-2xx summed over every round. */
function best(rounds: Figure[]): Figure {
  const top = rounds.reduce((a, b) => (b.rps > a.rps ? b : a));
  return {
    ...top,
    cpuUsPerReq: Math.min(...rounds.map((r) => r.cpuUsPerReq)),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
  };
}

export async function benchReference(opts: BenchOptions = {}): Promise<BenchResult> {
  const connections = opts.connections ?? 10;
  const duration = opts.durationSec ?? 5;
  const warmup = opts.warmupSec ?? 1;
  const rounds = Math.max(1, Math.floor(opts.rounds ?? 3));
  const servers: Server[] = [];
  try {
    const ref = await startServer(['reference']);
    servers.push(ref);
    const p = ref.profile!;
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const r = await request(p.base_url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const json = (await r.body.json()) as Record<string, unknown>;
      if (r.statusCode !== 200) throw new Error(`${path}: ${r.statusCode} ${JSON.stringify(json)}`);
      return json;
    };
    const accessToken = (answer: Record<string, unknown>): string => {
      if (typeof answer.access_token !== 'string') throw new Error(`bench: no access_token in ${JSON.stringify(answer)}`);
      return answer.access_token;
    };
    const model = await loadModel();
    const chain = model.auth.chain_header.toLowerCase();
    const walletHeader = model.auth.identity_headers.find((h) => /wallet/i.test(h))!.toLowerCase();
    const tokenReq = tokenRequest(model, p.clients[0]);
    const s2sToken = accessToken(await post(tokenReq.path, tokenReq.body));
    const address = '0x' + '1'.repeat(40);
    const userReq = createUserRequest(model, { email: 'bench@example.com', country: 'DE', address });
    const user = await post(userReq.path, userReq.body, { authorization: `Bearer ${s2sToken}` });
    const identity = s2sUserHeaders(model, s2sToken, userIdOf(model, user)!, p.chain_id!);
    const authorized = await post(model.operation('authorizeUser').path, undefined, { authorization: `Bearer ${s2sToken}`, [walletHeader]: address, [chain]: p.chain_id! });
    const userToken = { authorization: `Bearer ${accessToken(authorized)}`, [chain]: p.chain_id! };
    const readUrl = `${p.base_url}${model.operation('getUserV1').path}`;
    const sample = await request(readUrl, { headers: identity });
    const bare = await startServer(['bare', await sample.body.text()]);
    servers.push(bare);
    const scenarios = [
      { name: 'bare', server: bare, url: `${bare.baseUrl}/bare`, headers: identity },
      { name: 'userToken', server: ref, url: readUrl, headers: userToken },
      { name: 'identityHeader', server: ref, url: readUrl, headers: identity },
    ] as const;
    const seen: Record<(typeof scenarios)[number]['name'], Figure[]> = { bare: [], userToken: [], identityHeader: [] };
    if (warmup > 0) for (const s of scenarios) await run(s.url, s.headers, connections, warmup);
    // Odd rounds run in reverse order, so no scenario always follows the same one.
    for (let i = 0; i < rounds; i++) {
      for (const s of i % 2 === 0 ? scenarios : [...scenarios].reverse()) seen[s.name].push(await measure(s.server, s.url, s.headers, connections, duration));
    }
    const b = best(seen.bare);
    const read = (f: Figure[]): ReadFigure => {
      const r = best(f);
      return { ...r, ratio: r.rps / b.rps, cpuRatio: b.cpuUsPerReq / r.cpuUsPerReq };
    };
    return { bare: b, userToken: read(seen.userToken), identityHeader: read(seen.identityHeader), target: REFERENCE_BENCH_TARGET };
  } finally {
    // A disconnect lets a child exit on its own (so `node --cpu-prof` writes its profile); kill is the fallback.
    await Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            const t = setTimeout(() => s.child.kill(), 2000);
            s.child.once('exit', () => (clearTimeout(t), resolve()));
            if (s.child.exitCode !== null || s.child.signalCode !== null) return void (clearTimeout(t), resolve());
            s.child.disconnect();
          }),
      ),
    );
  }
}
