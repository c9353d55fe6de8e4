// Per-run services: the control adapter, the test identity provider and the webhook receiver. The
// receiver and the provider are registered with the target through the control adapter when it maps
// the registration operation, or set up out of band (external receiver at a public URL the vendor's
// dashboard holds; a stable provider key the vendor trusts). When the profile gives no way to set a
// service up, the checks that need it skip with the reason. But when the profile declares the service
// (control_url or a control adapter for the receiver, idp.enabled for the provider) and the target's
// control API refuses the registration, the run stops with ServiceRegistrationError (exit 2): a skip
// would let a target that refuses registration pass every check needing the service.
// A malformed adapter file is fatal too (exit 2).

import type { JWK } from 'jose';
import { readInputFile } from '../input/index.ts';
import type { RunServices } from '../checks/types.ts';
import type { HttpSession } from '../client/index.ts';
import { resolveControlAdapter, type ControlAdapter } from '../control/index.ts';
import { ServiceRegistrationError } from '../errors/index.ts';
import { startTestIdp, type TestIdp } from '../idp/index.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { parseListen, startWebhookReceiver, type TestWebhookReceiver } from '../webhooks/index.ts';
import type { ServiceProblems } from './needs.ts';

export interface StartedServices {
  services: RunServices;
  problems: ServiceProblems;
  /** The receiver, when one runs (its stats go in the run summary). */
  webhooks?: TestWebhookReceiver;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** --control-adapter: overrides profile.control_adapter. */
  controlAdapterFile?: string;
  /** --webhook-listen host:port: overrides profile.webhooks.listen. */
  webhookListen?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export const NO_WEBHOOK_ROUTE =
  'no way to have webhooks delivered to the engine: give profile.webhooks {listen, public_url} (the URL set in the vendor dashboard) or a control adapter that maps setWebhookBaseUrl';
export const NO_IDP_TRUST =
  'the target cannot be made to trust the test provider: map setIdpConfig in the control adapter, or register a stable key out of band and give profile.idp.app_id, signing_key (or signing_key_file) and jwks_url';

function describeFailure(what: string, err: unknown, mask: (s: string) => string): string {
  return mask(`${what} failed: ${(err as Error)?.message ?? String(err)}`);
}

async function register(session: HttpSession, adapter: ControlAdapter, op: string, body: Record<string, unknown>): Promise<string | undefined> {
  try {
    const res = await adapter.call(session.client('services'), op, { body });
    if (res.ok) return undefined;
    return session.mask(`control ${op} through the ${adapter.source} answered ${res.status}: ${res.text.slice(0, 200)}`);
  } catch (err) {
    return describeFailure(`control ${op} through the ${adapter.source}`, err, (s) => session.mask(s));
  }
}

function declaredControl(session: HttpSession, opts: ServiceOptions): string {
  if (opts.controlAdapterFile) return `--control-adapter ${opts.controlAdapterFile}`;
  if (session.profile.control_adapter) return `control_adapter ${session.profile.control_adapter}`;
  return 'control_url';
}

async function stableKey(profile: ResolvedProfile, session: HttpSession): Promise<Record<string, unknown> | undefined> {
  let key = profile.idp?.signing_key;
  const file = profile.idp?.signing_key_file;
  if (!key && file) {
    key = (await readInputFile(file, { what: 'profile.idp.signing_key_file', format: 'json' })).value as Record<string, unknown>;
  }
  // The private half must never reach a report.
  for (const k of ['d', 'p', 'q', 'dp', 'dq', 'qi']) if (typeof key?.[k] === 'string') session.learnedSecrets.add(key[k] as string);
  return key;
}

async function startReceiver(session: HttpSession, adapter: ControlAdapter | undefined, opts: ServiceOptions, problems: ServiceProblems): Promise<TestWebhookReceiver | undefined> {
  const ext = session.profile.webhooks;
  try {
    if (ext) {
      const { host, port } = parseListen(opts.webhookListen ?? ext.listen);
      return await startWebhookReceiver({ host, port, publicUrl: ext.public_url, keep: ext.max_deliveries, maxTotalBytes: ext.max_total_bytes });
    }
    if (!adapter?.supports('setWebhookBaseUrl')) {
      problems.webhooks = NO_WEBHOOK_ROUTE;
      return undefined;
    }
    const rx = await startWebhookReceiver(opts.webhookListen ? parseListen(opts.webhookListen) : {});
    const problem = await register(session, adapter, 'setWebhookBaseUrl', { base_url: rx.baseUrl });
    if (!problem) return rx;
    await rx.close();
    // The adapter is there because the profile (or --control-adapter) declared it: refusal is an error.
    throw new ServiceRegistrationError(`registering the webhook receiver failed: ${problem}; the profile declares ${declaredControl(session, opts)}, so checks needing webhooks would otherwise be skipped (fix the control API, or remove it from the profile to run without webhooks)`);
  } catch (err) {
    if (err instanceof ServiceRegistrationError) throw err;
    problems.webhooks = describeFailure('starting the webhook receiver', err, (s) => session.mask(s));
  }
  return undefined;
}

async function startIdp(session: HttpSession, adapter: ControlAdapter | undefined, problems: ServiceProblems): Promise<TestIdp | undefined> {
  const { profile } = session;
  const cfg = profile.idp!;
  const key = await stableKey(profile, session);
  try {
    if (adapter?.supports('setIdpConfig')) {
      const idp = await startTestIdp({ signingKey: key as JWK | undefined, appId: cfg.app_id });
      const problem = await register(session, adapter, 'setIdpConfig', { client_id: profile.clients[0].client_id, app_id: idp.appId, jwks_url: idp.jwksUrl });
      if (!problem) return idp;
      await idp.close();
      // startIdp runs only when profile.idp.enabled: the profile declared the provider.
      throw new ServiceRegistrationError(`registering the test identity provider failed: ${problem}; the profile declares idp.enabled, so the identity-provider checks would otherwise be skipped (fix the control API, or set idp.enabled false)`);
    }
    if (!cfg.app_id || !key || !cfg.jwks_url) {
      problems.idp = NO_IDP_TRUST;
      return undefined;
    }
    const listen = cfg.jwks_listen ? parseListen(cfg.jwks_listen) : {};
    return await startTestIdp({ ...listen, signingKey: key as JWK | undefined, appId: cfg.app_id, publicJwksUrl: cfg.jwks_url, issuer: cfg.issuer });
  } catch (err) {
    if (err instanceof ServiceRegistrationError) throw err;
    problems.idp = describeFailure('starting the test identity provider', err, (s) => session.mask(s));
    return undefined;
  }
}

/** Resolves the control adapter and starts only what the selected checks need (`want`). */
export async function startServices(session: HttpSession, want: { idp: boolean; webhooks: boolean }, opts: ServiceOptions = {}): Promise<StartedServices> {
  const { profile } = session;
  const services: RunServices = {};
  const problems: ServiceProblems = {};
  const model = session.model;
  const adapter = model
    ? await resolveControlAdapter(profile, model, { file: opts.controlAdapterFile, cwd: opts.cwd, env: opts.env, onSecret: (v) => session.learnedSecrets.add(v) })
    : undefined;
  if (adapter) services.control = adapter;
  let idp: TestIdp | undefined;
  let webhooks: TestWebhookReceiver | undefined;
  if (want.webhooks) {
    webhooks = await startReceiver(session, adapter, opts, problems);
    if (webhooks) services.webhooks = webhooks;
  }
  if (profile.idp?.enabled && want.idp) {
    try {
      idp = await startIdp(session, adapter, problems);
    } catch (err) {
      await webhooks?.close(); // the run stops: nothing may keep listening
      throw err;
    }
    if (idp) services.idp = idp;
  }
  return {
    services,
    problems,
    webhooks,
    async close() {
      await Promise.all([idp?.close(), webhooks?.close()]);
    },
  };
}
