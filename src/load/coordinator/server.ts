// The coordinator's HTTP surface: bearer-token check, bodies read under a byte bound, JSON in and
// out, GET /metrics. What each route means is the coordinator's (coordinate.ts); this file only
// makes sure nothing unbounded or unauthenticated reaches it.

import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { BaasConformError, ConfigError } from '../../errors/index.ts';

export interface Route {
  /** Most bytes of the body. */
  maxBytes: number;
  /** The answer (status, JSON body), or undefined to answer later through `hold`. */
  handle(body: unknown, res: ServerResponse): { status: number; body: unknown } | undefined;
}

/** An error a route throws to refuse a message with this status. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const digest = (s: string) => createHash('sha256').update(s).digest();

export function answer(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface CoordinatorServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function serveCoordinator(token: string, routes: Record<string, Route>, registry: Registry, port: number, host: string): Promise<CoordinatorServer> {
  const expected = digest(token);
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
      );
      return;
    }
    const route = req.method === 'POST' ? routes[path] : undefined;
    if (!route) {
      req.resume();
      answer(res, 404, { error: 'POST /v1/join, /v1/report, /v1/final; GET /metrics' });
      return;
    }
    const auth = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
    if (!auth || !timingSafeEqual(digest(auth[1]), expected)) {
      req.resume();
      answer(res, 401, { error: 'not a shard of this run: present the run token the coordinator printed (BAAS_RUN_TOKEN)' });
      return;
    }
    readBody(req, route.maxBytes).then(
      (buf) => {
        if (!buf) return answer(res, 413, { error: `message over ${route.maxBytes} bytes` });
        let body: unknown;
        try {
          body = JSON.parse(buf.toString('utf8'));
        } catch {
          return answer(res, 400, { error: 'the body is not JSON' });
        }
        try {
          const out = route.handle(body, res);
          if (out) answer(res, out.status, out.body);
        } catch (err) {
          const status = err instanceof Refusal ? err.status : err instanceof BaasConformError ? 400 : 500;
          answer(res, status, { error: (err as Error).message });
        }
      },
      () => answer(res, 400, { error: 'the body could not be read' }),
    );
  });
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new ConfigError(`load coordinate: cannot listen on ${host}:${port} (${err.code ?? err.message}); choose another --port`)));
    server.listen(port, host, resolve);
  });
  const addr = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
