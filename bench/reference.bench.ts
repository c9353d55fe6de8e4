// Throughput of the reference server's hot path against a bare node:http server answering the same
// JSON body, in the same run and with the same autocannon settings. Each server runs in a child process
// (bench/reference.child.ts), so its CPU per request is its own. Two reads of GET /api/v1/user:
// - user token: `Authorization: Bearer <user token>` + X-Chain-Id (the token, verified once and then
//   cached by the reference, names the user);
// - identity header: an S2S token + X-User-Id + X-Chain-Id (section 5 "User identity headers").
// Each read is measured in paired rounds: a reference run and a bare run on the same request headers,
// back to back. Each round gives a ratio reference/bare, and the figure of merit is the median of those
// ratios (bench/paired.ts), target >= 0.95. Rounds are short, so both sides of a ratio meet the same
// state of a noisy host; printed with its spread, never unit-tested. BENCH_REFERENCE_BURN_US adds that
// many microseconds of busy work to each reference request: the bench's own proof that it can fail.

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { request } from 'undici';
import { createUserRequest, s2sUserHeaders, tokenRequest, userIdOf } from '../src/client/credentials.ts';
import { loadModel } from '../src/model/index.ts';
import type { TargetProfile } from '../src/profile/types.ts';
import { median, pairedRatio, type PairedRatio } from './paired.ts';

export interface BenchOptions {
  connections?: number;
  durationSec?: number;
  warmupSec?: number;
  /** Paired rounds (default 8). */
  rounds?: number;
  /** Busy microseconds added to each reference request (0: none). */
  burnUs?: number;
}

/** One autocannon round against one server. */
export interface Round {
  rps: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** Server CPU (user + system) per request in microseconds. */
  cpuUsPerReq: number;
}

/** A scenario over every round: medians, and errors and non-2xx summed. */
export interface Figure extends Round {
  rounds: Round[];
}

export interface ReadFigure extends Figure {
  /** The bare server over the rounds paired with this read (same request headers). */
  bare: Figure;
  /** req/s over bare req/s, round by round. */
  ratio: PairedRatio;
  /** Bare CPU per request over this server's, round by round (1: as cheap as bare node:http). */
  cpuRatio: PairedRatio;
}

export interface BenchResult {
  /** GET /api/v1/user with a user token (cached verification). */
  userToken: ReadFigure;
  /** GET /api/v1/user with an S2S token and X-User-Id. */
  identityHeader: ReadFigure;
  target: number;
  burnUs: number;
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
async function measure(server: Server, url: string, headers: Record<string, string>, connections: number, duration: number): Promise<Round> {
  const c0 = await server.cpuUs();
  const r = await run(url, headers, connections, duration);
  const cpu = (await server.cpuUs()) - c0;
  return { rps: r.requests.average, p99Ms: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, cpuUsPerReq: cpu / Math.max(1, r.requests.total) };
}

/** Medians over the rounds; errors and non-2xx summed over every round. */
function summary(rounds: Round[]): Figure {
  return {
    rps: median(rounds.map((r) => r.rps)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    cpuUsPerReq: median(rounds.map((r) => r.cpuUsPerReq)),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    rounds,
  };
}

export async function benchReference(opts: BenchOptions = {}): Promise<BenchResult> {
  const connections = opts.connections ?? 10;
  const duration = opts.durationSec ?? 2;
  const warmup = opts.warmupSec ?? 1;
  const rounds = Math.max(1, Math.floor(opts.rounds ?? 8));
  const burnUs = Math.max(0, opts.burnUs ?? 0);
  const servers: Server[] = [];
  try {
    const ref = await startServer(['reference', String(burnUs)]);
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
    // Each read is paired with a bare round that receives the very same request headers (parsing them is
    // part of what both servers pay), run right before or after it; the order inside a pair and the order
    // of the pairs alternate over the rounds, so no side always meets the machine first.
    const reads = [
      { name: 'userToken', headers: userToken },
      { name: 'identityHeader', headers: identity },
    ] as const;
    const seen = Object.fromEntries(reads.map((r) => [r.name, { bare: [] as Round[], ref: [] as Round[] }])) as Record<(typeof reads)[number]['name'], { bare: Round[]; ref: Round[] }>;
    const bareUrl = `${bare.baseUrl}/bare`;
    if (warmup > 0) for (const r of reads) for (const url of [bareUrl, readUrl]) await run(url, r.headers, connections, warmup);
    for (let i = 0; i < rounds; i++) {
      for (const r of i % 2 === 0 ? reads : [...reads].reverse()) {
        const sides = [
          { side: 'bare', server: bare, url: bareUrl },
          { side: 'ref', server: ref, url: readUrl },
        ] as const;
        for (const s of Math.floor(i / 2) % 2 === 0 ? sides : [...sides].reverse()) seen[r.name][s.side].push(await measure(s.server, s.url, r.headers, connections, duration));
      }
    }
    const read = (name: (typeof reads)[number]['name']): ReadFigure => {
      const { bare: b, ref: f } = seen[name];
      return {
        ...summary(f),
        bare: summary(b),
        ratio: pairedRatio(f.map((r) => r.rps), b.map((r) => r.rps)),
        cpuRatio: pairedRatio(b.map((r) => r.cpuUsPerReq), f.map((r) => r.cpuUsPerReq)),
      };
    };
    return { userToken: read('userToken'), identityHeader: read('identityHeader'), target: REFERENCE_BENCH_TARGET, burnUs };
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

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const spread = (p: PairedRatio) => `${p.median.toFixed(3)} (rounds ${p.low.toFixed(2)}-${p.high.toFixed(2)})`;

export function formatReference(r: BenchResult, operation: string): string {
  const rounds = r.userToken.rounds.length;
  const row = (label: string, f: Figure) =>
    `  ${label.padEnd(34)}: ${fmt(f.rps).padStart(7)} req/s  ${f.cpuUsPerReq.toFixed(1).padStart(6)} us server CPU/req  (p99 ${f.p99Ms} ms, non-2xx ${f.non2xx}, errors ${f.errors})`;
  const ratio = (label: string, f: ReadFigure) => `  ratio, ${label.padEnd(27)}: ${spread(f.ratio)} req/s, ${spread(f.cpuRatio)} CPU/req`;
  return [
    `reference server: ${operation} vs bare node:http (same JSON body; each server in its own process), 10 connections, ${rounds} paired rounds, medians`,
    ...(r.burnUs > 0 ? [`  (BENCH_REFERENCE_BURN_US=${r.burnUs}: every reference request spins ${r.burnUs} us first; this run is meant to miss)`] : []),
    row('bare node:http, user-token headers', r.userToken.bare),
    row('reference, user token (cached)', r.userToken),
    row('bare node:http, identity headers', r.identityHeader.bare),
    row('reference, S2S token + X-User-Id', r.identityHeader),
    ratio('user token', r.userToken),
    ratio('S2S token + identity header', r.identityHeader),
    `  target: median req/s ratio >= ${r.target} for both reads. Each ratio pairs a reference round with a bare round`,
    '  run just before or after it on the same request headers; CPU/req (bare over reference) is the same comparison in server CPU',
    '',
  ].join('\n');
}

/** The target is missed by a median req/s ratio under it, or by any error or non-2xx answer. */
export function referenceMissed(r: BenchResult): boolean {
  return [r.userToken, r.identityHeader].some((f) => f.non2xx > 0 || f.errors > 0 || f.ratio.median < r.target);
}
