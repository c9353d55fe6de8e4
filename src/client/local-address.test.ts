// HttpRequest.localAddress: the per-IP rate-limit check (limits.token.rate-limit-split) connects
// from 127.0.0.2, 127.0.0.3, ... so a loopback target sees distinct client addresses.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { field } from '../checks/body.ts';
import { resolveProfile } from '../profile/index.ts';
import { HttpSession } from './index.ts';

let server: Server | undefined;
let session: HttpSession | undefined;
afterEach(async () => {
  await session?.close();
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
});

it('sends from the given source address, one pool per address, and from the default one otherwise', async () => {
  server = createServer((req, res) => res.end(JSON.stringify({ from: req.socket.remoteAddress })));
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  session = new HttpSession({ profile: resolveProfile({ base_url: base, clients: [{ client_id: 'c', client_secret: 's-123456' }] }, { env: {} }), timeoutBudgetMs: 30_000 });
  const c = session.client('t');
  const from = async (localAddress?: string) => String(field((await c.send({ path: '/', ...(localAddress ? { localAddress } : {}) })).json, 'from')).replace(/^::ffff:/, '');
  expect(await from('127.0.0.2')).toBe('127.0.0.2');
  expect(await from('127.0.0.3')).toBe('127.0.0.3');
  expect(await from()).toBe('127.0.0.1');
  // The pool of 127.0.0.2 is reused, not replaced by the later ones.
  expect(await from('127.0.0.2')).toBe('127.0.0.2');
});
