// The interception proxy's own transport on loopback: an upstream that closes a kept-alive socket as the
// proxy reuses it is a race of the connection, not a fault of the variant, and must not reach the check
// as the proxy's 502 (a false positive of a benign variant on a loaded machine).

import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { TargetProfile } from '../profile/types.ts';
import { startInterceptProxy, type InterceptProxy } from './proxy.ts';

const OK = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\nconnection: keep-alive\r\nkeep-alive: timeout=10\r\n\r\n{"ok":true}';

/**
 * An upstream whose first connection answers its first request and resets on the next one (the request
 * reaches a socket already closing); every other request is answered. Counts the requests it answered.
 */
async function resettingUpstream(): Promise<{ url: string; answered: () => number; close: () => Promise<void> }> {
  let connections = 0;
  let answered = 0;
  const server = net.createServer((socket) => {
    const n = ++connections;
    let seen = 0;
    socket.on('data', (chunk) => {
      // One request per chunk is enough here: small GETs on loopback, one at a time per socket.
      if (!chunk.includes('\r\n\r\n')) return;
      seen++;
      if (n === 1 && seen === 2) return void socket.resetAndDestroy();
      answered++;
      socket.write(OK);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, answered: () => answered, close: () => new Promise((r) => server.close(() => r())) };
}

let stop: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stop.map((s) => s()));
  stop = [];
});

describe('interception proxy transport', () => {
  it('resends on a fresh socket a request whose reused kept-alive socket the upstream reset, instead of answering 502', async () => {
    const upstream = await resettingUpstream();
    const proxy: InterceptProxy = await startInterceptProxy({ base_url: upstream.url } as TargetProfile, {});
    stop.push(upstream.close, () => proxy.close());
    const get = async () => {
      const res = await fetch(`${proxy.baseUrl}/api/v1/anything`);
      return { status: res.status, body: await res.text() };
    };
    expect(await get()).toEqual({ status: 200, body: '{"ok":true}' });
    // The proxy's agent reuses the first socket; the upstream resets it as the request arrives.
    expect(await get()).toEqual({ status: 200, body: '{"ok":true}' });
    expect(upstream.answered()).toBe(2);
  });
});
