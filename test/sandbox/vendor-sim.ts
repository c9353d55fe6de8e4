// A "vendor sandbox simulation" on loopback for the sandbox tests: its own paths, body shapes, status
// names and an API key, translated onto the reference's control API (which the profile under test does
// NOT name). It plays a partner's sandbox that has simulation calls but not our control API, so the
// adapter file (vendor-adapter.yaml) is what connects the two. It also plays the vendor's dashboard:
// `dashboard` registers the webhook URL and the identity provider out of band, as a partner would.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SIM_KEY_HEADER = 'x-sim-key';

/** Vendor status names (the adapter maps the section 3 names onto these with `values`). */
export const VENDOR_SEPA_STATES: Record<string, string> = {
  ActivationNotStarted: 'not_started',
  ExternalProviderVerificationRequired: 'needs_wallet_link',
  ExternalProviderRegistrationPending: 'provider_pending',
  InProgress: 'in_progress',
  Active: 'live',
};

/** Vendor test-event names by section 6 webhook name (the adapter maps triggerWebhook's kind with `values`). */
const VENDOR_EVENTS: Record<string, string> = {
  'cardholder.updated': 'user',
  'auth_challenge.created': '3ds',
  'withdrawal.created': 'erc-withdrawals',
  'payee.details_added': 'recipients',
  'collections.case_opened': 'debt-cases',
  'company.updated': 'corporations',
  'card.limit_updated': 'card_limit',
};

export interface VendorSim {
  url: string;
  /** Calls received per vendor route (what the adapter actually used). */
  calls: Map<string, number>;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

/** `controlUrl`: the reference's control API, known to the simulation only. */
export async function startVendorSim(controlUrl: string, key: string): Promise<VendorSim> {
  const calls = new Map<string, number>();
  const fromVendor = Object.fromEntries(Object.entries(VENDOR_SEPA_STATES).map(([k, v]) => [v, k]));
  const forward = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${controlUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  type Route = [string, RegExp, (m: RegExpMatchArray, body: any, url: URL) => Promise<[number, unknown]>];
  const routes: Route[] = [
    ['POST', /^\/sim\/v2\/time-travel$/, async (_m, b) => {
      const r = await forward('POST', '/clock/advance', { seconds: b.jump?.by_seconds });
      return [r.status === 200 ? 202 : r.status, { clock: { unix: r.json?.now } }];
    }],
    ['DELETE', /^\/sim\/v2\/time-travel$/, async () => {
      const r = await forward('POST', '/clock/reset', {});
      return [r.status === 200 ? 200 : r.status, { clock: { unix: r.json?.now } }];
    }],
    ['POST', /^\/sim\/v2\/cardholders\/([^/]+)\/auth-challenges$/, async (m, b) => {
      const r = await forward('POST', `/users/${m[1]}/3ds`, { amount: b.purchase?.value, currency: b.purchase?.ccy });
      return [r.status, { data: { challenge_ref: r.json?.transaction_id, valid_until: r.json?.expires_at } }];
    }],
    ['PATCH', /^\/sim\/v2\/cardholders\/([^/]+)$/, async (m, b) => {
      const status = fromVendor[b.iban_product?.state];
      if (!status) return [422, { problem: `unknown state ${b.iban_product?.state}` }];
      return [(await forward('PUT', `/users/${m[1]}/capabilities/SepaAccount`, { status })).status === 204 ? 200 : 400, { ok: true }];
    }],
    ['POST', /^\/sim\/v2\/cardholders\/([^/]+)\/primary-wallet\/(attach|detach)$/, async (m) => {
      const r = await forward('PUT', `/users/${m[1]}/primary-wallet`, { present: m[2] === 'attach' });
      return [r.status === 204 ? 200 : r.status, { ok: r.status === 204 }];
    }],
    ['POST', /^\/sim\/v2\/iban-provider\/events$/, async (_m, b) => {
      if (b.type !== 'account.opened') return [422, { problem: 'unknown event' }];
      const r = await forward('POST', `/users/${b.holder}/sepa/complete`, {});
      return [r.status === 204 ? 200 : r.status, { accepted: true }];
    }],
    ['POST', /^\/sim\/v2\/test-wallet\/sign$/, async (_m, b) => {
      const r = await forward('POST', `/users/${b.holder}/sign`, { challenge: b.message });
      return [r.status, { result: { sig: r.json?.signed_challenge, signer: r.json?.wallet_address } }];
    }],
    ['POST', /^\/sim\/v2\/cardholders\/([^/]+)\/erc20-withdrawals$/, async (m, b) => {
      const r = await forward('POST', `/users/${m[1]}/withdrawal-requests`, { destination_address: b.to });
      return [r.status, { item: r.json }];
    }],
    // The vendor's "send a test event" call (like `stripe trigger`), with its own event names.
    ['POST', /^\/sim\/v2\/cardholders\/([^/]+)\/test-events$/, async (m, b) => {
      const kind = VENDOR_EVENTS[b.event];
      if (!kind) return [422, { problem: `unknown event ${b.event}` }];
      const r = await forward('POST', `/users/${m[1]}/webhooks/${kind}`, {});
      return [r.status === 202 ? 201 : r.status, { queued: r.status === 202 }];
    }],
    ['POST', /^\/sim\/v2\/settlements$/, async (_m, _b, url) => {
      const r = await forward('POST', `/activities/${url.searchParams.get('activity')}/complete`, {});
      return [r.status === 204 ? 200 : r.status, { settled: r.status === 204 }];
    }],
  ];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://sim');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers[SIM_KEY_HEADER] !== key) return send(401, { problem: 'bad simulation key' });
      // Like most vendor simulations, it also wants the partner's own S2S token (a JWT from POST /api/v1/token).
      if (!/^Bearer eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(String(req.headers.authorization ?? ''))) return send(401, { problem: 'partner token required' });
      for (const [method, re, handler] of routes) {
        const m = url.pathname.match(re);
        if (req.method !== method || !m) continue;
        calls.set(`${method} ${re.source}`, (calls.get(`${method} ${re.source}`) ?? 0) + 1);
        const [status, body] = await handler(m, await readJson(req), url);
        return send(status, body);
      }
      send(404, { problem: `no simulation route ${req.method} ${url.pathname}` });
    })().catch((err) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ problem: String(err) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The vendor's dashboard: webhook URL and identity provider, registered once, out of band. */
export async function dashboard(controlUrl: string, opts: { webhookUrl?: string; idp?: { client_id: string; app_id: string; jwks_url: string } }): Promise<void> {
  const put = async (path: string, body: unknown) => {
    const res = await fetch(`${controlUrl}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 204) throw new Error(`dashboard PUT ${path}: HTTP ${res.status} ${await res.text()}`);
  };
  if (opts.webhookUrl) await put('/webhooks', { base_url: opts.webhookUrl });
  if (opts.idp) await put('/idp', opts.idp);
}
