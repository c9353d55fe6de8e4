// Hostile targets: servers that misbehave at the transport level rather than break one rule.
// The engine must survive each: finish within the timeout budget, fail the affected checks with the
// cause, never crash, keep memory bounded. They listen on loopback only.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadModel } from '../model/index.ts';

export type HostileKind = 'hang' | 'reset' | 'malformed-json' | 'huge-body' | 'wrong-content-type' | 'script-in-errors';

export const HOSTILE_KINDS: readonly HostileKind[] = ['hang', 'reset', 'malformed-json', 'huge-body', 'wrong-content-type', 'script-in-errors'];

export interface HostileTarget {
  kind: HostileKind;
  baseUrl: string;
  close(): Promise<void>;
}

/** 20 MiB, streamed in 64 KiB chunks so the server itself never holds it. */
const HUGE_BODY_BYTES = 20 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

const SCRIPT = '<script>alert("pwned")</script><img src=x onerror=alert(1)>';

function tokenOk(res: http.ServerResponse): void {
  // The token endpoint answers normally so preflight passes and the hostility hits the checks.
  const body = JSON.stringify({ access_token: 'h.o.stile', token_type: 'Bearer', expires_at: Math.floor(Date.now() / 1000) + 172800 });
  res.writeHead(200, { 'content-type': 'application/json' }).end(body);
}

function handler(kind: HostileKind, tokenPath: string): http.RequestListener {
  return (req, res) => {
    req.resume();
    if (req.url?.startsWith(tokenPath) && kind !== 'script-in-errors') return tokenOk(res);
    switch (kind) {
      case 'hang':
        // Never answer; the socket stays open until the client's budget aborts it.
        return;
      case 'reset':
        req.socket.destroy();
        return;
      case 'malformed-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"user_id": "abc", "broken": ');
        return;
      case 'huge-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        let sent = 0;
        const pump = () => {
          while (sent < HUGE_BODY_BYTES) {
            sent += CHUNK.length;
            if (!res.write(CHUNK)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => { sent = HUGE_BODY_BYTES; });
        pump();
        return;
      }
      case 'wrong-content-type':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>hello</body></html>');
        return;
      case 'script-in-errors':
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({
          error_reason: SCRIPT,
          error_description: `${SCRIPT} & "quotes" ]]> </failure>`,
          error_category: { category: SCRIPT, http_status_code: 400 },
          error_details: [{ key: SCRIPT, details: ']]><x/>' }],
        }));
        return;
    }
  };
}

export async function startHostileTarget(kind: HostileKind, host = '127.0.0.1'): Promise<HostileTarget> {
  const server = http.createServer(handler(kind, (await loadModel()).operation('createToken').path));
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    kind,
    baseUrl: `http://${host}:${port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
