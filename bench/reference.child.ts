// The server of bench/reference.bench.ts, in a process of its own so its CPU per request is its own (the
// load generator runs in the parent). argv: `reference [burn µs]`, or `bare <JSON body>` for a node:http
// server answering that body. A burn spins that long before each request reaches the reference, so the
// bench can be shown to miss its target. Prints one JSON line (reference: its profile; bare: { base_url }); answers every
// IPC message with its process.cpuUsage() so far.

import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReference } from '../src/reference/index.ts';

const [kind, arg] = process.argv.slice(2);
if (kind === 'reference') {
  const burnUs = Number(arg);
  const burnNs = burnUs > 0 ? BigInt(Math.round(burnUs * 1000)) : 0n;
  if (burnNs > 0n) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = function (this: Server, event: string | symbol, ...rest: unknown[]): boolean {
      if (event === 'request') for (const end = process.hrtime.bigint() + burnNs; process.hrtime.bigint() < end; );
      return emit.apply(this, [event, ...rest] as Parameters<typeof emit>);
    };
  }
  const ref = await startReference();
  process.stdout.write(`${JSON.stringify(ref.profile)}\n`);
} else {
  const body = arg;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
}
process.on('message', () => process.send!(process.cpuUsage()));
process.on('disconnect', () => process.exit(0));
