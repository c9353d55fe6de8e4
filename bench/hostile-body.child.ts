// One case of bench/hostile-body.bench.ts, in a process of its own so its peak RSS is its own: serves
// the payload on loopback with the given headers, has the client read it once, prints
// {"maxRssBytes", "outcome"} on stdout. argv: payload (a file path, or `stream:<bytes>` for that many
// bytes streamed in 64 KiB chunks without Content-Length, never held whole), JSON of response headers.

import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpSession, isTransportError } from '../src/client/index.ts';
import { resolveProfile } from '../src/profile/index.ts';

const [spec, headersJson] = process.argv.slice(2);
const headers = JSON.parse(headersJson) as Record<string, string>;
const streamed = /^stream:(\d+)$/.exec(spec);
const payload = streamed ? undefined : await readFile(spec);
const CHUNK = Buffer.alloc(64 * 1024, 0x61);
const server = http.createServer((req, res) => {
  req.resume();
  if (payload) return void res.writeHead(200, { 'content-length': String(payload.length), ...headers }).end(payload);
  res.writeHead(200, headers);
  let left = Number(streamed![1]);
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      left -= CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => (left = 0));
  pump();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base_url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const session = new HttpSession({ profile: resolveProfile({ base_url, clients: [{ client_id: 'bench', client_secret: 'bench-secret' }] }, { env: {} }), timeoutBudgetMs: 30_000 });
let outcome: string;
try {
  const res = await session.client('bench').send({ path: '/' });
  outcome = `HTTP ${res.status}, ${res.text.length} chars${res.jsonError ? ` (${res.jsonError})` : ''}`;
} catch (err) {
  outcome = isTransportError(err) ? `${err.code}${err.bytes === undefined ? '' : ` (held ${err.bytes} bytes)`}` : String(err);
}
await session.close();
server.closeAllConnections();
server.close();
// maxRSS is in KiB on Linux and macOS.
process.stdout.write(`${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024, outcome })}\n`);
