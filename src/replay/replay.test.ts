import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { CancelledError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';
import type { TargetProfile } from '../profile/index.ts';
import { startReference, type ReferenceServer } from '../reference/index.ts';
import { HarReporter, JsonReporter } from '../report/index.ts';
import { loadHar, replayHar } from './har-replay.ts';
import { shapeDiff } from './shape.ts';

/**
 * A loopback proxy in front of the reference that, while `faulty`, drops token_type from token
 * answers (the AUTH-S2S-TOKEN-RESPONSE fault), and records every bearer token it forwards and issues.
 */
async function faultyProxy(upstream: string) {
  const state = { faulty: true, tokens: new Set<string>(), issued: new Set<string>(), requests: 0, onRequest: undefined as (() => void) | undefined };
  const body = (req: IncomingMessage) => new Promise<string>((r) => {
    let s = '';
    req.on('data', (d) => (s += d)).on('end', () => r(s));
  });
  const server: Server = createServer(async (req, res) => {
    state.requests++;
    state.onRequest?.();
    const auth = req.headers.authorization;
    if (auth?.startsWith('Bearer ')) state.tokens.add(auth.slice(7));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length', 'accept-encoding'].includes(k)) headers[k] = v;
    const text = await body(req);
    const up = await fetch(upstream + req.url, { method: req.method, headers, ...(text ? { body: text } : {}) });
    let out = await up.text();
    if (req.url === '/api/v1/token' && up.status === 200) state.issued.add((JSON.parse(out) as { access_token: string }).access_token);
    if (state.faulty && req.url === '/api/v1/token' && up.status === 200) {
      const { token_type: _dropped, ...rest } = JSON.parse(out) as Record<string, unknown>;
      out = JSON.stringify(rest);
    }
    res.writeHead(up.status, { 'content-type': up.headers.get('content-type') ?? 'application/json' });
    res.end(out);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { state, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => (server.closeAllConnections(), server.close(r))) };
}

const CHECK = 'auth.s2s.token-response';
let dir: string;
let ref: ReferenceServer;
let proxy: Awaited<ReturnType<typeof faultyProxy>>;
let profileFile: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'baas-replay-'));
  ref = await startReference();
  proxy = await faultyProxy(ref.profile.base_url);
  const profile: TargetProfile = { ...ref.profile, base_url: proxy.url };
  profileFile = join(dir, 'profile.json');
  await writeFile(profileFile, JSON.stringify(profile));
  // The recording: the check fails on the faulty proxy; the HAR and results.json keep it.
  const out = await runConformance({ profile, env: {}, seed: 21, checks: [CHECK, 'schema.get-user-v2'], reporters: [new HarReporter(join(dir, 'run.har')), new JsonReporter(join(dir, 'results.json'))] });
  expect(out.results.find((r) => r.checkId === CHECK)?.verdict).toBe('fail');
});
afterAll(async () => {
  await proxy?.close();
  await ref?.close();
  await rm(dir, { recursive: true, force: true });
});

async function cli(...args: string[]) {
  const { io, out, err } = captureIo({ cwd: dir, env: {} });
  const code = await main(args, io);
  return { code, out: out(), err: err() };
}

describe('replay', () => {
  it('a HAR: reproduces the faulty answers, shows what changed once the fault is gone, and never resends a recorded token', async () => {
    proxy.state.faulty = true;
    proxy.state.tokens.clear();
    proxy.state.issued.clear();
    const same = await cli('replay', 'run.har', '--profile', profileFile, '--allow-writes');
    expect(same.out).toMatch(/SAME #\d+ POST \/api\/v1\/token \(createToken\) \[auth\.s2s\.token-response\]/);
    expect(same.out).not.toContain('token_type');
    expect(same.out).not.toMatch(/eyJ/); // the fresh tokens are masked in what replay prints
    // Fresh tokens only: every token the replay presented was issued during the replay (a token minted
    // in the same second as a recorded one may equal it byte for byte: HS256 with the same claims).
    expect(proxy.state.tokens.size).toBeGreaterThan(0);
    for (const t of proxy.state.tokens) expect(proxy.state.issued.has(t)).toBe(true);

    proxy.state.faulty = false;
    const fixed = await cli('replay', 'run.har', '--profile', profileFile, '--allow-writes');
    expect(fixed.code).toBe(1);
    expect(fixed.out).toMatch(/DIFFERS #\d+ POST \/api\/v1\/token \(createToken\) \[auth\.s2s\.token-response\]\n {4}\$\.token_type: only now/);
  });

  it('refuses writes without --allow-writes, naming them, and replays the reads', async () => {
    proxy.state.faulty = true;
    const r = await cli('replay', 'run.har', '--profile', profileFile);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/REFUSED #\d+ POST \/api\/v1\/user \(createUserV1\) \[schema\.get-user-v2\]: a write/);
    expect(r.err).toMatch(/refused \d+ write\(s\) without --allow-writes: #\d+ POST createUserV1/);
    expect(r.out).toMatch(/(SAME|DIFFERS) #\d+ GET \/api\/v2\/user/);
  });

  it('--entry replays only the entries named; a number past the end is a usage error', async () => {
    const one = await cli('replay', 'run.har', '--profile', profileFile, '--entry', '1');
    expect(one.out).toMatch(/replayed 1, /);
    const bad = await cli('replay', 'run.har', '--profile', profileFile, '--entry', '999');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--entry 999: the HAR has entries 1\.\.\d+/);
  });

  it('a results.json: re-runs the check with the recorded seed; fails on the faulty proxy, passes once fixed', async () => {
    proxy.state.faulty = true;
    const failing = await cli('replay', 'results.json', '--check', CHECK, '--profile', profileFile);
    expect(failing.out).toContain('with the recorded seed 21 (was fail)');
    expect(failing.code).toBe(1);
    proxy.state.faulty = false;
    expect((await cli('replay', 'results.json', '--check', CHECK, '--profile', profileFile)).code).toBe(0);
    expect((await cli('replay', 'results.json', '--profile', profileFile)).err).toContain(`add --check ID (its failed checks: ${CHECK}`);
  });

  it('--config names the target as it does for run', async () => {
    proxy.state.faulty = true;
    await writeFile(join(dir, 'replay.config.json'), JSON.stringify({ profile: 'profile.json' }));
    const before = proxy.state.requests;
    const r = await cli('replay', 'run.har', '--config', 'replay.config.json', '--entry', '1');
    expect(r.out).not.toContain('embedded reference');
    expect(r.out).toMatch(/replayed 1, /);
    expect(proxy.state.requests).toBeGreaterThan(before);
  });

  it('a cancelled replay sends nothing more and ends in CancelledError', async () => {
    const har = await loadHar(join(dir, 'run.har'));
    const profile = resolveProfile({ ...ref.profile, base_url: proxy.url }, { env: {} }, 'test profile');
    const model = await loadModel();
    const before = proxy.state.requests;
    await expect(replayHar(har, { profile, model, allowWrites: true, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(CancelledError);
    expect(proxy.state.requests).toBe(before);
    // Aborted while the first request is at the target: that answer is not compared, no other request is sent.
    const controller = new AbortController();
    proxy.state.onRequest = () => controller.abort();
    try {
      await expect(replayHar(har, { profile, model, allowWrites: true, signal: controller.signal })).rejects.toThrow(/replay cancelled: 0 of \d+ entries/);
    } finally {
      proxy.state.onRequest = undefined;
    }
    expect(proxy.state.requests).toBe(before + 1);
  });

  it('refuses a file that is not HAR 1.2 with a usage error', async () => {
    await writeFile(join(dir, 'bad.har'), JSON.stringify({ log: { entries: [] } }));
    const r = await cli('replay', 'bad.har', '--profile', profileFile);
    expect(r.code).toBe(2);
    expect(r.err).toContain('is not HAR 1.2');
  });
});

describe('shapeDiff', () => {
  it('normalises ids and timestamps, compares numbers by type, reports fields only in one, type and value changes', () => {
    const a = { id: '0f4705f4-7508-478b-8288-c96fa7efb2d3', at: '2026-01-01T00:00:00Z', n: 1, s: 'Active', data: [{ x: 1 }], gone: true };
    const b = { id: 'a1b2c3d4-7508-478b-8288-c96fa7efb2d3', at: '2026-11-25T12:00:00Z', n: 2, s: 'Closed', data: [{ x: '1' }], extra: null };
    expect(shapeDiff(a, b)).toEqual(['$.gone: only in the recording', '$.extra: only now', '$.s: "Active" in the recording, "Closed" now', '$.data[].x: number in the recording, string now']);
    expect(shapeDiff({ ...a }, { ...a, id: 'ffffffff-7508-478b-8288-c96fa7efb2d3', n: 99 })).toEqual([]);
  });
});
