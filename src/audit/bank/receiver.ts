// The sample client's webhook receiver: accepts every POST (a payload may come twice, late, with both
// the preferred and the deprecated names and fields it does not know). In `webhook-strict` mode it
// refuses repeats and unknown fields, as a too-strict receiver would.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  received: { path: string; body: unknown }[];
  close(): Promise<void>;
}

export async function startReceiver(opts: { strict?: boolean; port?: number } = {}): Promise<Receiver> {
  const received: Receiver['received'] = [];
  const seen = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      received.push({ path: req.url ?? '/', body });
      if (opts.strict && (seen.has(text) || Object.keys(body as object).some((k) => k.startsWith('x_')))) {
        res.writeHead(422).end();
        return;
      }
      seen.add(text);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }),
  };
}
