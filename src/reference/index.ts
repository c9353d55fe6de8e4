// Reference implementation of the Partner API: the embedded default target and the executable meaning
// of the spec. This is the composition root: it builds the state (state/), the routes (routes.ts: the
// model's operations joined with handlers/), the two listeners and the published profile. See
// README.md in this folder for the layout and the decisions taken where the spec is silent.

import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { TargetProfile } from '../profile/types.ts';
import { BANK_ACCOUNT_WEBHOOK_PATH, CARD_LIMIT_WEBHOOK_PATH, CONTROL_PREFIX } from './handlers/control.ts';
import { BALANCES_WEBHOOK_PATH, WALLETS_WEBHOOK_PATH } from './handlers/users.ts';
import { REFERENCE_TOKEN_AUDIENCE } from './handlers/token.ts';
import { DEFAULT_OPERATION_PATHS } from './handlers/index.ts';
import { SANDBOX_SMS_CODE } from './handlers/sensitive.ts';
import { Router } from './http.ts';
import { listen } from './listen.ts';
import { referenceModel } from './model.ts';
import { createHandler } from './pipeline.ts';
import { apiRoutes, controlRoutes, type UnspecifiedAuth } from './routes.ts';
import { REFERENCE_PROBE_BOUND, RefState } from './state/index.ts';
import { REFERENCE_TARGET_NAME, type ReferenceOptions, type ReferenceServer, type ReferenceTls } from './types.ts';

export { FAULT_POINTS, type FaultPoint } from './faults.ts';
export { DEFAULT_OPERATION_PATHS } from './handlers/index.ts';
export { BANK_ACCOUNT_WEBHOOK_PATH } from './handlers/control.ts';
export { DEFAULT_RATE_LIMIT, EMBEDDED_RUN_RATE_LIMIT } from './state/index.ts';
export { S2S_STEPS, USER_TOKEN_STEPS, USER_TOKEN_VALIDITY_SECONDS } from './auth/index.ts';
export type { OutgoingResponse, RateLimitOptions, ReferenceOptions, ReferenceServer, ReferenceTls, ResponseTransform, TransformRequest } from './types.ts';
export { REFERENCE_TARGET_NAME } from './types.ts';
export { generateTlsIdentity, type TlsIdentity } from './tls.ts';

/** Request body limit (64 KiB): a longer body is a 400 validation failure, never buffered. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;

type Listener = Server | TlsServer;

function originOf(host: string, port: number, scheme: 'http' | 'https'): string {
  const h = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `${scheme}://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/** A listener: plain HTTP, or HTTPS with the given identity and protocol bounds (undefined ones: Node's defaults). */
function createListener(tls: ReferenceTls | undefined, handler: Parameters<typeof createServer>[1]): Listener {
  if (!tls) return createServer({ keepAliveTimeout: 10_000 }, handler);
  const { key, cert, minVersion, maxVersion, ciphers } = tls;
  return createTlsServer({ keepAliveTimeout: 10_000, key, cert, ...(minVersion ? { minVersion } : {}), ...(maxVersion ? { maxVersion } : {}), ...(ciphers ? { ciphers } : {}) }, handler);
}

function closeServer(server: Listener): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

const secret = () => randomBytes(24).toString('base64url');

/** The vendor key header of pciAuth 'headers' (any name would do: the spec shows none). */
const PCI_KEY_HEADER = 'X-Api-Key';

function unspecifiedAuth(mode: ReferenceOptions['pciAuth']): UnspecifiedAuth | undefined {
  if (!mode) return undefined;
  return mode === 'headers' ? { mode, key: { header: PCI_KEY_HEADER, value: `pk_${secret()}` } } : { mode };
}

/** profile.operation_auth for every pci operation whose authentication the spec does not show (from the model). */
function operationAuthOf(model: Awaited<ReturnType<typeof referenceModel>>, a: UnspecifiedAuth): NonNullable<TargetProfile['operation_auth']> {
  const entry = a.mode === 'headers' ? { mode: a.mode, headers: { [a.key!.header]: a.key!.value } } : { mode: a.mode };
  return Object.fromEntries([...model.operations.values()].filter((o) => o.authUnspecified && o.server === 'pci').map((o) => [o.operationId, { ...entry }]));
}

export async function startReference(opts: ReferenceOptions = {}): Promise<ReferenceServer> {
  const host = opts.host ?? '127.0.0.1';
  const control = opts.control !== false;
  const model = await referenceModel();
  const chainId = model.auth.sandbox_chain_id;
  if (!chainId) throw new Error('spec/rules/auth.yaml: sandbox_chain_id is missing; the reference publishes it as profile.chain_id');
  const st = new RefState({ model, faults: opts.faults, rateLimit: opts.rateLimit, rateLimitWindowMs: opts.rateLimitWindowMs, settleMs: opts.settleMs, s2sValiditySeconds: opts.s2sValiditySeconds });

  // Seed: two partner companies (isolation needs two), plus the special clients of the token table.
  const s = st.store;
  const clientA = s.addClient(s.addCompany('Company A', 'Partner'), secret());
  const clientB = s.addClient(s.addCompany('Company B', 'Partner'), secret());
  const noSecret = s.addClient(s.addCompany('Company C (no secret)', 'Partner'), null);
  const restricted = s.addClient(s.addCompany('Company D (restricted type)', 'Restricted'), secret());

  const apiRouter = new Router();
  for (const r of apiRoutes(st, 'api')) apiRouter.add(r);
  if (control) for (const r of controlRoutes(st, model)) apiRouter.add(r);
  const pciRouter = new Router();
  const pciAuth = unspecifiedAuth(opts.pciAuth);
  for (const r of apiRoutes(st, 'pci', pciAuth)) pciRouter.add(r);

  const common = { st, bodyLimitBytes: opts.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES, latencyMs: opts.latencyMs ?? 0, latencyEvery: Math.max(1, Math.floor(opts.latencyEvery ?? 1)), transform: opts.transform };
  const api = createListener(opts.tls, createHandler({ ...common, router: apiRouter, server: 'api' }));
  const pci = createListener(opts.tls, createHandler({ ...common, router: pciRouter, server: 'pci' }));
  const scheme = opts.tls ? 'https' : 'http';
  let apiPort: number;
  let pciPort: number;
  try {
    apiPort = await listen(api, opts.port ?? 0, host);
    pciPort = await listen(pci, opts.pciPort ?? 0, host);
  } catch (e) {
    if (api.listening) await closeServer(api);
    throw e;
  }
  const base_url = originOf(host, apiPort, scheme);
  st.issuer = base_url;

  const profile: TargetProfile = {
    name: opts.name ?? REFERENCE_TARGET_NAME,
    base_url,
    pci_url: originOf(host, pciPort, scheme),
    ...(control ? { control_url: `${base_url}${CONTROL_PREFIX}` } : {}),
    ...(opts.tls?.caFile ? { ca_file: opts.tls.caFile } : {}),
    chain_id: chainId,
    clients: [
      { client_id: clientA.client_id, client_secret: clientA.secret as string, label: 'company-a' },
      { client_id: clientB.client_id, client_secret: clientB.secret as string, label: 'company-b' },
    ],
    special_clients: {
      // The server has no secret for this client; the one given here is sent and never matches.
      no_secret: { client_id: noSecret.client_id, client_secret: secret(), label: 'no-secret' },
      company_type_restricted: { client_id: restricted.client_id, client_secret: restricted.secret as string, label: 'restricted-company-type' },
    },
    s2s_signing_secret: st.secrets.s2sSecret,
    user_token_signing_secret: st.secrets.userSecret,
    // The identity provider is registered through the control API, so it needs control.
    idp: { enabled: control },
    operations: Object.fromEntries(Object.entries(DEFAULT_OPERATION_PATHS).map(([k, v]) => [k, { ...v }])),
    webhook_paths: { bank_account: BANK_ACCOUNT_WEBHOOK_PATH, wallets: WALLETS_WEBHOOK_PATH, balances: BALANCES_WEBHOOK_PATH, card_limit: CARD_LIMIT_WEBHOOK_PATH },
    // How the card-tokenization environment is protected when it is (pciAuth): the spec does not show it, so the profile says.
    ...(pciAuth ? { operation_auth: operationAuthOf(model, pciAuth) } : {}),
    // The optional audience of token requests (section 4 shows no value), as a vendor documents it.
    request_templates: { createToken: { audience: REFERENCE_TOKEN_AUDIENCE }, verifySmsCode: { code: SANDBOX_SMS_CODE } },
    // GET /api/v1/wallet?wallet_id= (the spec says "optional wallet ID" without naming it).
    wallet_id_param: 'wallet_id',
    // A card transfer settles on a timer (settleMs): whether an activity read already carries its
    // completion time depends on when it is read. `compare` leaves it out (two runs differ there by design).
    volatile_fields: ['completed_at'],
    // The reference documents its token limits as a vendor would (section 8 shows no numbers); a
    // reference without a limit (fault ratelimit.disabled) documents none.
    rate_limit: st.fault('ratelimit.disabled')
      ? {}
      : { per_ip: st.rateLimit.o.perIp, per_client: st.rateLimit.o.perClient, window_seconds: st.rateLimit.o.windowMs / 1000, max_probe_requests: REFERENCE_PROBE_BOUND },
  };

  let closed: Promise<void> | undefined;
  return {
    profile,
    close() {
      closed ??= (async () => {
        st.close();
        await Promise.all([closeServer(api), closeServer(pci)]);
        await Promise.race([st.webhooks.drain(), new Promise((r) => setTimeout(r, 1000).unref())]);
      })();
      return closed;
    },
  };
}
