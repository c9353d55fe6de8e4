// Test helper (not exported from index.ts): loopback servers and HttpSessions for the client's tests,
// all closed after each test (`afterEach(loopback.close)`), so a failing test leaves no socket or
// pool open for the next. Servers misbehave on purpose in the tests that use them.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolveProfile } from '../profile/index.ts';
import { HttpSession, type HttpSessionOptions } from './http.ts';
import { TransportError } from './errors.ts';

export interface Loopback {
  /** A loopback server answering with `handler`; returns its base URL. */
  serve(handler: (req: IncomingMessage, res: ServerResponse) => void, host?: string): Promise<string>;
  /** The URL of a loopback port that was listening and is closed now (connections are refused). */
  closedPort(): Promise<string>;
  /** A session against `baseUrl` (budget 30 s unless `extra` says otherwise). */
  session(baseUrl: string, extra?: Partial<HttpSessionOptions>): HttpSession;
  /** Closes every session and server made since the last call. */
  close(): Promise<void>;
}

/** `profile`: fields added to every session's profile (base_url and one client are given). */
export function loopback(profile: Record<string, unknown> = {}): Loopback {
  const servers: Server[] = [];
  const sessions: HttpSession[] = [];
  const serve: Loopback['serve'] = async (handler, host = '127.0.0.1') => {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, host, r));
    return `http://${host}:${(server.address() as AddressInfo).port}`;
  };
  return {
    serve,
    async closedPort() {
      const url = await serve(() => undefined);
      const server = servers.pop()!;
      await new Promise((r) => server.close(r));
      return url;
    },
    session(baseUrl, extra = {}) {
      const resolved = resolveProfile({ base_url: baseUrl, clients: [{ client_id: 'cid', client_secret: 'super-secret-1' }], ...profile }, { env: {} });
      const s = new HttpSession({ profile: resolved, timeoutBudgetMs: 30_000, ...extra });
      sessions.push(s);
      return s;
    },
    async close() {
      await Promise.all(sessions.splice(0).map((s) => s.close()));
      for (const s of servers.splice(0)) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
    },
  };
}

/** The TransportError `p` rejects with; anything else (or no rejection) throws. */
export async function transportError(p: Promise<unknown>): Promise<TransportError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof TransportError) return err;
    throw new Error(`expected TransportError, got ${String(err)}`);
  }
  throw new Error('expected TransportError');
}

/**
 * A token endpoint refusing the (limit+1)th request of each fixed window with 429 (+ `headers`), as the
 * pacing tests need: every arrival time goes to `times`, every refusal is counted in `refused`.
 */
export function limitedTokenEndpoint(opts: { limit: number; windowMs: number; refused: { n: number }; times?: number[]; headers?: Record<string, string> }) {
  const { limit, windowMs, refused, times, headers = { 'retry-after': '1' } } = opts;
  let windowStart = 0;
  let inWindow = 0;
  return (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const now = performance.now();
      if (now - windowStart >= windowMs) {
        windowStart = now;
        inWindow = 0;
      }
      times?.push(now);
      if (++inWindow > limit) {
        refused.n++;
        res.writeHead(429, { ...headers, 'content-type': 'application/json' });
        res.end('{"error_reason":"ErrorRateLimited"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"access_token":"tok-abcdefgh","token_type":"Bearer","expires_at":1}');
    });
  };
}
