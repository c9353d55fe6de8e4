// A fixed-delay reverse proxy on loopback: what a target across a WAN costs a run. Each request waits
// half the delay before it is forwarded and its whole answer waits the other half before it is
// returned, so every exchange costs at least one round trip whatever the target. The upstream
// connection leaves from the client's own source address (127.0.0.x), so a target's per-IP limits
// see the addresses the run chose (limits.token.rate-limit-split spreads over several).

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  /** Requests forwarded so far. */
  readonly count: number;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);
const IPV4_LOOPBACK = /^(?:::ffff:)?(127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Starts a proxy in front of `upstream` (an origin, http only) adding `delayMs` to every exchange. */
export async function startDelayProxy(upstream: string, delayMs: number): Promise<DelayProxy> {
  const target = new URL(upstream);
  if (target.protocol !== 'http:') throw new Error(`the delay proxy forwards to http origins only, got ${upstream}`);
  const half = delayMs / 2;
  // One keep-alive pool per source address (the agent keys its sockets by localAddress too).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let count = 0;
  const server = http.createServer((req, res) => {
    count++;
    const from = IPV4_LOOPBACK.exec(req.socket.remoteAddress ?? '')?.[1];
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) headers[k] = v;
    headers.host = target.host;
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      void sleep(half).then(() => {
        const up = http.request(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent, ...(from ? { localAddress: from } : {}) },
          (ures) => {
            const chunks: Buffer[] = [];
            ures.on('data', (c: Buffer) => chunks.push(c));
            ures.on('end', () => {
              void sleep(half).then(() => {
                const out: http.OutgoingHttpHeaders = {};
                for (const [k, v] of Object.entries(ures.headers)) if (!HOP_BY_HOP.has(k) && v !== undefined) out[k] = v;
                const payload = Buffer.concat(chunks);
                // A HEAD answer keeps the length the target declared; any other carries what was read.
                if (req.method !== 'HEAD') out['content-length'] = payload.length;
                res.writeHead(ures.statusCode ?? 502, ures.statusMessage, out);
                res.end(req.method === 'HEAD' ? undefined : payload);
              });
            });
            ures.on('error', () => res.destroy());
          },
        );
        up.on('error', () => res.destroy());
        up.end(Buffer.concat(body));
      });
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get count() {
      return count;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      agent.destroy();
    },
  };
}
