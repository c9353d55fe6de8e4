// Webhooks on their way to the client's receiver (--webhook-url). The reference delivers to this relay;
// the relay passes each delivery on as the plan says: with an unknown extra field, and a second time
// late. Payloads keep what the reference sends (both the preferred and the deprecated names). The
// receiver's answers are recorded for CLIENT-WEBHOOK-ACCEPT.

import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import type { AuditPlan } from './plan.ts';
import type { Delivery } from './types.ts';

export interface Relay {
  server: Server;
  deliveries: Delivery[];
  /** Waits for deliveries under way (bounded). */
  drain(maxMs: number): Promise<void>;
  close(): Promise<void>;
}

export function createRelay(target: string, plan: AuditPlan['webhooks']): Relay {
  const deliveries: Delivery[] = [];
  const inflight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const deliver = (path: string, payload: string, attempt: Delivery['attempt']) => {
    if (closed) return;
    const d: Delivery = { seq: deliveries.length + 1, path, attempt, startMs: Date.now() };
    deliveries.push(d);
    const p = request(`${target.replace(/\/+$/, '')}${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: payload, headersTimeout: 5000, bodyTimeout: 5000,
    })
      .then(async (res) => {
        d.status = res.statusCode;
        await res.body.dump();
      })
      .catch((e: Error) => {
        d.error = e.message;
      })
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(204).end();
      let payload = Buffer.concat(chunks).toString('utf8');
      try {
        const v = JSON.parse(payload);
        if (v && typeof v === 'object' && !Array.isArray(v)) payload = JSON.stringify({ ...v, [plan.extra_field]: 'added by the audit: a receiver ignores fields it does not know' });
      } catch {
        // Not JSON: passed on as it came.
      }
      const path = (req.url ?? '/').split('?')[0];
      deliver(path, payload, 'first');
      if (plan.duplicate) {
        const t = setTimeout(() => {
          timers.delete(t);
          deliver(path, payload, 'repeat');
        }, plan.late_ms);
        timers.add(t);
      }
    });
  });

  return {
    server,
    deliveries,
    async drain(maxMs) {
      const until = Date.now() + maxMs;
      while ((inflight.size > 0 || timers.size > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    },
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      return new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
    },
  };
}
