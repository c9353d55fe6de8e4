// Webhook delivery: POST JSON to {webhook_base_url}{path}, fire-and-forget with a 5 s timeout.
// Never awaited by request handling; failures are counted, not retried (section 6: retry and
// delivery guarantees not shown).

import { request } from 'undici';

export class WebhookEmitter {
  baseUrl: string | undefined;
  sent = 0;
  failed = 0;
  private readonly inflight = new Set<Promise<void>>();

  emit(path: string, payload: unknown): void {
    const base = this.baseUrl;
    if (!base) return;
    const url = base.replace(/\/+$/, '') + path;
    const p = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      headersTimeout: 5000,
      bodyTimeout: 5000,
      signal: AbortSignal.timeout(5000),
    })
      .then(async (res) => {
        await res.body.dump();
        this.sent++;
      })
      .catch(() => {
        this.failed++;
      })
      .finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  /** Waits for deliveries under way (used on close so no socket outlives the server). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }
}
