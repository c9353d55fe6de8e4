// A loopback "vendor sandbox" for the JS adapter example (vendor-adapter.mjs): the embedded reference
// serves the Partner API, and in front of its hidden test-control API sits the vendor's OWN
// sandbox-simulation API, shaped the way vendors shape theirs: other paths, ISO 8601 durations and
// times, SCREAMING_SNAKE states, amounts in minor units, its own ids (test cards, SEPA accounts) and an
// API key. Some operations take two calls: a 3DS challenge is created on a test card (list or create
// the user's card first); SEPA completion is an event on the user's SEPA account (look its id up first).
//
//   npx tsx examples/sandbox/vendor.ts [dir]
// writes dir/profile.json (control_adapter: vendor-adapter.mjs, no control_url) and prints the
// VENDOR_URL / VENDOR_API_KEY to export before `npx baas-conform run --profile dir/profile.json`.

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TargetProfile } from '../../src/profile/types.ts';
import { EMBEDDED_RUN_RATE_LIMIT, startReference, type ReferenceServer } from '../../src/reference/index.ts';

/** The vendor's SEPA state names, by the section 3 status they stand for. */
export const VENDOR_SEPA_STATES = {
  ActivationNotStarted: 'NOT_STARTED',
  ExternalProviderVerificationRequired: 'WALLET_LINK_REQUIRED',
  ExternalProviderRegistrationPending: 'PROVIDER_PENDING',
  InProgress: 'IN_PROGRESS',
  Active: 'ACTIVE',
} as const;

/** The vendor's test-event names, by section 6 webhook name. */
export const VENDOR_EVENTS = {
  user: 'user.updated',
  '3ds': 'threeds.challenge_created',
  'erc-withdrawals': 'withdrawal.requested',
  recipients: 'recipient.crypto_details_added',
  'debt-cases': 'debt_case.opened',
  corporations: 'corporation.updated',
  card_limit: 'card.limit_changed',
} as const;

/** Vendor routes that can be broken on purpose (the example's test shows the run catches it). */
export type VendorRoute = 'clock' | 'cards' | 'challenges' | 'sepa-status' | 'sepa-account' | 'sepa-open' | 'wallet' | 'sign' | 'withdrawals' | 'events' | 'settle' | 'settings';

export interface Vendor {
  url: string;
  apiKey: string;
  reference: ReferenceServer;
  /** The profile a partner would write: the reference's Partner API, no control_url, this adapter. */
  profile: TargetProfile;
  /** Calls received per route. */
  calls: Map<VendorRoute, number>;
  close(): Promise<void>;
}

type Reply = [status: number, body?: unknown];
/** What the vendor's routes read from a request body (unchecked, as a quick simulation would). */
interface VendorBody {
  advance_by?: string;
  amount?: { value_minor?: number; currency?: string };
  state?: string;
  type?: string;
  payload?: string;
  to?: string;
  url?: string;
  client_id?: string;
  app_id?: string;
  jwks_url?: string;
}
/** What the routes read from the reference's control answers. */
interface Upstream {
  now?: number;
  transaction_id?: string;
  expires_at?: number;
  signed_challenge?: string;
  wallet_address?: string;
  error_description?: string;
}
type Handler = (m: RegExpMatchArray, body: VendorBody) => Promise<Reply>;

const ADAPTER = new URL('./vendor-adapter.mjs', import.meta.url).pathname;
const problem = (status: number, code: string, message: string): Reply => [status, { error: { code, message } }];

async function readBody(req: IncomingMessage): Promise<VendorBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as VendorBody) : {};
}

/** PT60S, PT1.5S, PT2M, PT1H30M: the subset of ISO 8601 durations a clock jump needs. */
function durationSeconds(text: unknown): number | undefined {
  const m = /^PT(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(String(text));
  if (!m || m[0] === 'PT') return undefined;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

export async function startVendor(opts: { broken?: VendorRoute[] } = {}): Promise<Vendor> {
  const reference = await startReference({ name: 'reference behind a vendor sandbox API', rateLimit: EMBEDDED_RUN_RATE_LIMIT });
  const control = reference.profile.control_url!;
  const apiKey = `vk_${randomBytes(12).toString('hex')}`;
  const calls = new Map<VendorRoute, number>();
  const cards = new Map<string, string>(); // card id -> user id
  const accounts = new Map<string, string>(); // SEPA account id -> user id
  const fromVendorState = new Map<string, string>(Object.entries(VENDOR_SEPA_STATES).map(([k, v]) => [v, k]));
  const kindOfEvent = new Map<string, string>(Object.entries(VENDOR_EVENTS).map(([k, v]) => [v, k]));
  const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

  const forward = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${control}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}), signal: AbortSignal.timeout(10_000) });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as Upstream };
  };
  /** The reference's answer in the vendor's words: its status, or the vendor's error shape. */
  const relay = (r: { status: number; json: Upstream }, ok: (json: Upstream) => Reply): Reply =>
    r.status < 300 ? ok(r.json) : problem(r.status === 404 ? 404 : 409, r.status === 404 ? 'not_found' : 'invalid_request', String(r.json.error_description ?? `upstream HTTP ${r.status}`));

  const routes: [VendorRoute, string, RegExp, Handler][] = [
    ['clock', 'POST', /^\/sandbox\/clock$/, async (_m, b) => {
      const seconds = durationSeconds(b.advance_by);
      if (seconds === undefined) return problem(422, 'invalid_duration', 'advance_by must be an ISO 8601 duration like PT60S');
      return relay(await forward('POST', '/clock/advance', { seconds }), (j) => [200, { now: new Date((j.now ?? 0) * 1000).toISOString() }]);
    }],
    // Back to real time: the run undoes its clock moves through resetClock at its end.
    ['clock', 'DELETE', /^\/sandbox\/clock$/, async () => relay(await forward('POST', '/clock/reset'), (j) => [200, { now: new Date((j.now ?? 0) * 1000).toISOString() }])],
    ['cards', 'GET', /^\/sandbox\/users\/([^/]+)\/cards$/, async (m) => [200, { cards: [...cards].filter(([, u]) => u === m[1]).map(([cardId]) => ({ id: cardId, state: 'ACTIVE' })) }]],
    ['cards', 'POST', /^\/sandbox\/users\/([^/]+)\/cards$/, async (m) => {
      const cardId = id('tc');
      cards.set(cardId, m[1]);
      return [201, { card: { id: cardId, state: 'ACTIVE' } }];
    }],
    ['challenges', 'POST', /^\/sandbox\/cards\/([^/]+)\/3ds-challenges$/, async (m, b) => {
      const user = cards.get(m[1]);
      if (!user) return problem(404, 'card_not_found', `no test card ${m[1]}`);
      const amount = b.amount?.value_minor === undefined ? undefined : b.amount.value_minor / 100;
      return relay(await forward('POST', `/users/${user}/3ds`, { amount, currency: b.amount?.currency }), (j) => [201, { challenge: { id: j.transaction_id, expires_at: new Date((j.expires_at ?? 0) * 1000).toISOString() } }]);
    }],
    ['sepa-status', 'POST', /^\/sandbox\/users\/([^/]+)\/sepa-status$/, async (m, b) => {
      const status = fromVendorState.get(String(b.state));
      if (!status) return problem(422, 'invalid_state', `state must be one of ${[...fromVendorState.keys()].join(', ')}`);
      return relay(await forward('PUT', `/users/${m[1]}/capabilities/SepaAccount`, { status }), () => [200, { user_id: m[1], state: b.state }]);
    }],
    // Every user has a SEPA account record at the vendor, whatever put it in its state (this
    // simulation, or the public init/complete path), so completion works for both.
    ['sepa-account', 'GET', /^\/sandbox\/users\/([^/]+)\/sepa-account$/, async (m) => {
      let accountId = [...accounts].find(([, u]) => u === m[1])?.[0];
      if (!accountId) accounts.set((accountId = id('sa')), m[1]);
      return [200, { account: { id: accountId, user_id: m[1] } }];
    }],
    ['sepa-open', 'POST', /^\/sandbox\/sepa-accounts\/([^/]+)\/events$/, async (m, b) => {
      const user = accounts.get(m[1]);
      if (!user) return problem(404, 'account_not_found', `no SEPA account ${m[1]}`);
      if (b.type !== 'ACCOUNT_OPENED') return problem(422, 'invalid_event', 'type must be ACCOUNT_OPENED');
      return relay(await forward('POST', `/users/${user}/sepa/complete`), () => [200, { account: { id: m[1], state: 'OPEN' } }]);
    }],
    ['wallet', 'POST', /^\/sandbox\/users\/([^/]+)\/primary-wallet$/, async (m) => relay(await forward('PUT', `/users/${m[1]}/primary-wallet`, { present: true }), () => [201, { linked: true }])],
    ['wallet', 'DELETE', /^\/sandbox\/users\/([^/]+)\/primary-wallet$/, async (m) => relay(await forward('PUT', `/users/${m[1]}/primary-wallet`, { present: false }), () => [204])],
    ['sign', 'POST', /^\/sandbox\/users\/([^/]+)\/primary-wallet\/signatures$/, async (m, b) =>
      relay(await forward('POST', `/users/${m[1]}/sign`, { challenge: b.payload }), (j) => [200, { signature: j.signed_challenge, signer: j.wallet_address }])],
    ['withdrawals', 'POST', /^\/sandbox\/users\/([^/]+)\/withdrawal-requests$/, async (m, b) =>
      relay(await forward('POST', `/users/${m[1]}/withdrawal-requests`, b.to === undefined ? {} : { destination_address: b.to }), (j) => [201, { withdrawal_request: j }])],
    ['events', 'POST', /^\/sandbox\/users\/([^/]+)\/events$/, async (m, b) => {
      const kind = kindOfEvent.get(String(b.type));
      if (!kind) return problem(422, 'invalid_event', `type must be one of ${[...kindOfEvent.keys()].join(', ')}`);
      return relay(await forward('POST', `/users/${m[1]}/webhooks/${kind}`), () => [202, { queued: true }]);
    }],
    ['settle', 'POST', /^\/sandbox\/transfers\/([^/]+)\/settle$/, async (m) => relay(await forward('POST', `/activities/${m[1]}/complete`), () => [200, { settled: true }])],
    ['settings', 'PUT', /^\/sandbox\/settings\/webhook-endpoint$/, async (_m, b) => relay(await forward('PUT', '/webhooks', { base_url: b.url }), () => [200, { url: b.url }])],
    ['settings', 'PUT', /^\/sandbox\/settings\/identity-provider$/, async (_m, b) =>
      relay(await forward('PUT', '/idp', { client_id: b.client_id, app_id: b.app_id, jwks_url: b.jwks_url }), () => [200, { app_id: b.app_id }])],
    ['settings', 'DELETE', /^\/sandbox\/settings\/identity-provider\/([^/]+)$/, async (m) => relay(await forward('POST', '/idp/clear', { app_id: decodeURIComponent(m[1]) }), () => [204])],
  ];

  const server: Server = createServer((req, res) => {
    const send = ([status, body]: Reply) => {
      if (body === undefined) return res.writeHead(status).end();
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://vendor').pathname;
      if (req.headers.authorization !== `Bearer ${apiKey}`) return send(problem(401, 'unauthorized', 'send Authorization: Bearer <sandbox API key>'));
      for (const [name, method, re, handler] of routes) {
        const m = path.match(re);
        if (!m || req.method !== method) continue;
        calls.set(name, (calls.get(name) ?? 0) + 1);
        if (opts.broken?.includes(name)) return send(problem(500, 'internal', 'simulation unavailable'));
        return send(await handler(m, await readBody(req)));
      }
      send(problem(404, 'no_route', `no sandbox route ${req.method} ${path}`));
    })().catch((err: Error) => send(problem(500, 'internal', err.message)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { control_url: _hidden, ...partnerApi } = reference.profile;
  return {
    url,
    apiKey,
    reference,
    profile: { ...partnerApi, name: 'vendor sandbox (own simulation API, JS adapter)', control_adapter: ADAPTER },
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await reference.close();
    },
  };
}

// Run by hand: write the profile, print the environment, serve until Ctrl-C.
if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { join, resolve } = await import('node:path');
  const dir = resolve(process.argv[2] ?? 'vendor-sandbox');
  mkdirSync(dir, { recursive: true });
  const vendor = await startVendor();
  writeFileSync(join(dir, 'profile.json'), `${JSON.stringify(vendor.profile, null, 2)}\n`, { mode: 0o600 });
  process.stdout.write(`export VENDOR_URL=${vendor.url} VENDOR_API_KEY=${vendor.apiKey}\nnpx baas-conform run --profile ${join(dir, 'profile.json')}\n`);
  process.on('SIGINT', () => void vendor.close().then(() => process.exit(0)));
}
