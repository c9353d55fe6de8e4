// The whole suite while a hostile target abuses the JWKS endpoint the engine serves for its test
// identity provider (the target fetches it to check provider tokens): slowloris sockets that drip
// header bytes until the test ends, a flood of GETs, and POSTs with large bodies. The run must end
// (closing the provider must not wait for the slowloris sockets: if it did, the run would outlast the
// test timeout, which is the hang detector; no wall-time bound), nothing may crash,
// and the identity-provider checks must still pass: the abuse changes no answer of the target.

import http from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeBad, runBehindProxy } from './harness.ts';

const SLOWLORIS = 40;
/** Test timeout; each slowloris socket drips (one header line a second) for longer, so a close that waited for them would hang the run past it. */
const TEST_TIMEOUT_MS = 180_000;
const DRIP_TICKS = TEST_TIMEOUT_MS / 1000 + 60;

interface Abuse {
  sockets: net.Socket[];
  timers: NodeJS.Timeout[];
  gets: Record<string, number>;
  done?: Promise<void>;
}

function abuse(jwksUrl: string, a: Abuse): void {
  const url = new URL(jwksUrl);
  for (let i = 0; i < SLOWLORIS; i++) {
    const s = net.connect(Number(url.port), url.hostname, () => s.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n`));
    s.on('error', () => undefined);
    let ticks = 0;
    const t = setInterval(() => (s.destroyed || ++ticks > DRIP_TICKS ? (clearInterval(t), s.destroy()) : s.write(`X-Drip-${ticks}: 1\r\n`)), 1000);
    a.sockets.push(s);
    a.timers.push(t);
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const one = (method: string, body?: Buffer) =>
    new Promise<void>((resolve) => {
      const req = http.request(url, { method, agent }, (res) => {
        a.gets[res.statusCode ?? 0] = (a.gets[res.statusCode ?? 0] ?? 0) + 1;
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', () => resolve());
      req.end(body);
    });
  const big = Buffer.alloc(4 * 1024 * 1024, 0x7b);
  a.done = (async () => {
    for (let i = 0; i < 5; i++) await one('POST', big);
    let n = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (n++ < 2000) await one('GET');
    }));
    agent.destroy();
  })();
}

describe('hostile traffic to the engine\'s JWKS endpoint during a full run', () => {
  it('slowloris, a GET flood and large POSTs: bounded, no crash, identity-provider checks unaffected', async () => {
    const a: Abuse = { sockets: [], timers: [], gets: {} };
    let jwks: string | undefined;
    try {
      const run = await runBehindProxy({ misbehaviour: 'drip', every: 1, maxHits: 0, onJwksUrl: (u) => void (jwks ??= (abuse(u, a), u)) });
      await a.done;
      if (process.env.HOSTILE_DEBUG) console.log(`jwks: ${Math.round(run.ms)} ms, ${jwks}, answers ${JSON.stringify(a.gets)}, ${run.result?.summary.passed}/${run.result?.summary.total}\n${describeBad(run)}`);
      expect(jwks, 'the run never registered its identity provider through the control API').toBeDefined();
      expect(run.error, String(run.error)).toBeUndefined();
      expect(run.unhandled.map(String)).toEqual([]);
      // The flood reached the JWKS server and was answered.
      expect(a.gets['200']).toBeGreaterThan(100);
      const idp = run.result!.results.filter((r) => r.checkId.includes('idp'));
      expect(idp.length).toBeGreaterThan(3);
      expect(run.bad, describeBad(run)).toEqual([]);
      // The run closed the provider: every slowloris socket was cut by the server, not by us.
      expect(a.sockets.filter((s) => !s.destroyed && !s.readableEnded).length).toBe(0);
    } finally {
      for (const t of a.timers) clearInterval(t);
      for (const s of a.sockets) s.destroy();
    }
  }, TEST_TIMEOUT_MS);
});
