// Test helper (not exported from index.ts): a loopback target that answers setup calls at once and
// GETs in ~0 ms, but stalls some of them. Misbehaving on purpose, so verdicts are shown to fail.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveProfile, type ResolvedProfile } from '../profile/index.ts';

export interface StallTarget {
  profile: ResolvedProfile;
  base_url: string;
  /** GETs received. */
  gets(): number;
  close(): Promise<void>;
}

export interface StallOptions {
  /** Stall the GETs for which this returns a delay in ms (0: answer at once). */
  delayFor(n: number, req: IncomingMessage): number;
  /** Seconds until tokens expire (expires_at); default 48 h. */
  tokenTtlSec?: number;
}

export async function stallTarget(o: StallOptions): Promise<StallTarget> {
  let gets = 0;
  let tokens = 0;
  const server: Server = createServer((req, res) => {
    const reply = () => {
      if (res.destroyed) return;
      const body = { access_token: `t0ken-${++tokens}`, expires_at: Math.floor(Date.now() / 1000) + (o.tokenTtlSec ?? 172_800), user_id: 'u-1', id: 'x-1' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      const delay = req.method === 'GET' ? o.delayFor(++gets, req) : 0;
      if (delay > 0) setTimeout(reply, delay).unref();
      else reply();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base_url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base_url,
    profile: resolveProfile({ base_url, clients: [{ client_id: 'a', client_secret: 'secret-a' }] }, { env: {} }),
    gets: () => gets,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** Every `every`-th GET stalls `ms` milliseconds. */
export const everyNth = (every: number, ms: number) => (n: number) => (n % every === 0 ? ms : 0);
