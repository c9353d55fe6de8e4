#!/usr/bin/env node
// A misbehaving loopback target for trying the load verdicts (issue 8's "done when"): it answers every
// GET in about 1 ms but stalls one GET in EVERY (default 100) for STALL_MS (default 31000), past the
// spec's 30 s client budget. POSTs (token, user create, writes) answer at once with a JSON body that
// carries what the scenarios' setup reads (access_token, expires_at, user_id, id).
//   node examples/load/stall-server.mjs [port]     then, in another shell:
//   BAAS_CLIENT_ID=a BAAS_CLIENT_SECRET=b npx baas-conform load user-read --target http://127.0.0.1:PORT
import { createServer } from 'node:http';

const every = Number(process.env.EVERY ?? 100);
const stallMs = Number(process.env.STALL_MS ?? 31_000);
let gets = 0;
let stalled = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = JSON.stringify({ access_token: 'stall-token', token_type: 'Bearer', expires_at: Math.floor(Date.now() / 1000) + 172_800, user_id: '00000000-0000-4000-8000-000000000001', id: '00000000-0000-4000-8000-000000000001', data: [] });
    const reply = () => res.destroyed || res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    if (req.method !== 'GET') return reply();
    if (++gets % every === 0) {
      stalled++;
      setTimeout(reply, stallMs);
    } else setTimeout(reply, 1);
  });
});
server.keepAliveTimeout = 120_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.stdout.write(`stall server on http://127.0.0.1:${server.address().port} (1 GET in ${every} stalls ${stallMs} ms)\n`);
});
process.on('SIGTERM', () => {
  process.stdout.write(`stall server: ${gets} GETs, ${stalled} stalled\n`);
  process.exit(0);
});
