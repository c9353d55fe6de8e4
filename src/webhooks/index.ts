// Webhook receiver: the engine's {webhook_base_url} (section 6). Accepts JSON POSTs on any path,
// keeps a history bounded in count and in bytes (oldest dropped first, the drop counted so the report
// can say so), and lets checks wait for a delivery matching a predicate. In external mode it listens
// on a fixed address and the vendor delivers to a public URL (a tunnel) configured out of band.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ReceivedWebhook, RefusedDelivery, WebhookReceiver } from '../checks/types.ts';
import { jsonDepth, MAX_JSON_DEPTH } from '../client/decode.ts';
import { LISTEN_DEFAULTS } from '../options/defaults.ts';
import { stallTolerantTimer } from '../client/stall.ts';

export const WEBHOOK_DEFAULTS = {
  maxBodyBytes: 1024 * 1024,
  /** Oldest deliveries are dropped past this, so a chatty target cannot grow memory without bound. */
  keep: 10_000,
  /** Total bytes of kept bodies: a shared public receiver may be sent far more than a run needs. */
  maxTotalBytes: 64 * 1024 * 1024,
  host: LISTEN_DEFAULTS.host,
} as const;

export interface WebhookReceiverStats {
  received: number;
  /** Deliveries dropped from the history to stay under the count or byte bound. */
  dropped: number;
  droppedBytes: number;
  /** Deliveries refused because one body was over maxBodyBytes (413). */
  tooLarge: number;
  keptBytes: number;
}

export interface TestWebhookReceiver extends WebhookReceiver {
  /** Address actually listened on (http://host:port); baseUrl is the public URL in external mode. */
  listenUrl: string;
  stats(): WebhookReceiverStats;
  close(): Promise<void>;
}

export interface WebhookReceiverOptions {
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** Where senders reach the receiver when it is not the listen address (tunnel, CI host). */
  publicUrl?: string;
  maxBodyBytes?: number;
  keep?: number;
  maxTotalBytes?: number;
}

/** "host:port" -> parts; a bare ":port" listens on all interfaces. */
export function parseListen(listen: string): { host: string; port: number } {
  const i = listen.lastIndexOf(':');
  const host = listen.slice(0, i).replace(/^\[|\]$/g, '') || '0.0.0.0';
  return { host, port: Number(listen.slice(i + 1)) };
}

/** Non-POST requests kept for the method check, and the body text kept of each. */
const REFUSED_KEEP = 1000;
const REFUSED_TEXT_BYTES = 64 * 1024;

interface Waiter {
  path: string;
  predicate: (body: unknown) => boolean;
  resolve: (w: ReceivedWebhook | undefined) => void;
}

/**
 * A delivery made with another method than POST that is the one a waiter awaits (same path, body
 * matching): the event was sent and answered 405, so the POST the waiter needs is not coming and
 * the wait ends at once instead of running out (the method itself is judged from refused()).
 */
function refusedMatches(r: RefusedDelivery, path: string, predicate: Waiter['predicate']): boolean {
  if (r.path !== path) return false;
  let body: unknown;
  try {
    body = r.text ? JSON.parse(r.text) : undefined;
  } catch {
    return false;
  }
  try {
    return !!predicate(body);
  } catch {
    return false;
  }
}

function matches(w: ReceivedWebhook, path: string, predicate: Waiter['predicate']): boolean {
  if (w.path !== path) return false;
  try {
    return !!predicate(w.body);
  } catch {
    return false;
  }
}

export async function startWebhookReceiver(opts: WebhookReceiverOptions = {}): Promise<TestWebhookReceiver> {
  const host = opts.host ?? WEBHOOK_DEFAULTS.host;
  const maxBody = opts.maxBodyBytes ?? WEBHOOK_DEFAULTS.maxBodyBytes;
  const keep = opts.keep ?? WEBHOOK_DEFAULTS.keep;
  const maxTotal = opts.maxTotalBytes ?? WEBHOOK_DEFAULTS.maxTotalBytes;
  const received: ReceivedWebhook[] = [];
  const sizes: number[] = [];
  const stats: WebhookReceiverStats = { received: 0, dropped: 0, droppedBytes: 0, tooLarge: 0, keptBytes: 0 };
  const dropOldest = () => {
    received.shift();
    const n = sizes.shift() ?? 0;
    stats.keptBytes -= n;
    stats.dropped++;
    stats.droppedBytes += n;
  };
  const waiters = new Set<Waiter>();

  const refused: RefusedDelivery[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method !== 'POST') {
      // Kept apart (bounded in count and size) so the method can be judged; never handed to waiters.
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        if (size < REFUSED_TEXT_BYTES) chunks.push(c);
        size += c.length;
      });
      req.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        const r: RefusedDelivery = { method: req.method ?? '', path: (req.url ?? '/').split('?')[0], headers, text: Buffer.concat(chunks).toString('utf8').slice(0, REFUSED_TEXT_BYTES), receivedAt: Date.now() };
        refused.push(r);
        if (refused.length > REFUSED_KEEP) refused.shift();
        for (const w of waiters) {
          if (refusedMatches(r, w.path, w.predicate)) {
            waiters.delete(w);
            w.resolve(undefined);
          }
        }
        res.writeHead(405, { allow: 'POST' });
        res.end();
      });
      req.on('error', () => undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) {
        if (!tooLarge) {
          tooLarge = true;
          stats.tooLarge++;
          res.writeHead(413, { connection: 'close' });
          res.end();
          req.destroy();
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) return;
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      if (jsonDepth(text) > MAX_JSON_DEPTH) {
        // Nested too deep for the checks' recursive walkers (a RangeError crash) and costly in heap
        // once parsed: kept as raw text, so it reads as "not JSON", the target's fault.
        body = text;
      } else {
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // A target that sends non-JSON still delivered something; checks can see the raw text.
          body = text;
        }
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
      const hook: ReceivedWebhook = { path: (req.url ?? '/').split('?')[0], headers, body, receivedAt: Date.now() };
      received.push(hook);
      sizes.push(size);
      stats.received++;
      stats.keptBytes += size;
      while (received.length > keep || (stats.keptBytes > maxTotal && received.length > 1)) dropOldest();
      for (const w of waiters) {
        if (matches(hook, w.path, w.predicate)) {
          waiters.delete(w);
          w.resolve(hook);
        }
      }
      res.writeHead(204);
      res.end();
    });
    req.on('error', () => undefined);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const listenUrl = `http://${shown}:${port}`;

  return {
    baseUrl: (opts.publicUrl ?? listenUrl).replace(/\/+$/, ''),
    listenUrl,
    stats: () => ({ ...stats }),
    all: () => [...received],
    refused: () => [...refused],
    waitFor(path, predicate, timeoutMs, signal) {
      // Deliveries can arrive before the check starts waiting; look at history first.
      const seen = received.find((w) => matches(w, path, predicate));
      if (seen) return Promise.resolve(seen);
      if (refused.some((r) => refusedMatches(r, path, predicate))) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        // The check's signal ends the wait too: a check out of time does not hold a waiter for minutes.
        const finish = (w: ReceivedWebhook | undefined) => {
          timer.clear();
          waiters.delete(waiter);
          signal?.removeEventListener('abort', onAbort);
          resolve(w);
        };
        const onAbort = () => finish(undefined);
        const waiter: Waiter = { path, predicate, resolve: finish };
        // Time this thread could run (src/client/stall.ts): a delivery due while the thread was stalled
        // (the run's reference, receiver and checks share it in the selftest) is still awaited.
        const timer = stallTolerantTimer(timeoutMs, () => finish(undefined));
        waiters.add(waiter);
        if (signal?.aborted) finish(undefined);
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    async close() {
      for (const w of waiters) waiters.delete(w);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
