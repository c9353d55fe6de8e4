// `baas-conform doctor`: probes a target once, read-only, and says what its profile unlocks. It sends
// the run's own preflight (a token for clients[0]), a token for clients[1], one S2S read, one request to
// pci_url and, with our control API, one to control_url; it loads the control adapter and tries to bind
// the listen addresses the profile gives, and sends each operation whose authentication the spec does
// not show once with an empty body (./operation-auth.ts). It creates nothing on the target and calls no
// control operation. Every line it prints goes through the session's masking.

import { createServer } from 'node:net';
import { field } from '../checks/body.ts';
import type { Check, Need } from '../checks/types.ts';
import { HttpSession } from '../client/http.ts';
import { s2sUserHeaders, tokenRequest } from '../client/credentials.ts';
import { isTransportError } from '../client/errors.ts';
import { resolveControlAdapter, type ControlAdapter } from '../control/index.ts';
import { BaasConformError } from '../errors/index.ts';
import type { Model } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { unmetNeed } from '../runner/needs.ts';
import { needsFacts, unlockOf } from '../runner/needs-table.ts';
import { preflight } from '../runner/preflight.ts';
import { NO_IDP_TRUST, NO_WEBHOOK_ROUTE } from '../runner/services.ts';
import { parseListen } from '../webhooks/index.ts';
import { probeOperationAuth, type RefusedAuth } from './operation-auth.ts';

export type ProbeStatus = 'ok' | 'missing' | 'problem';

export interface Probe {
  what: string;
  status: ProbeStatus;
  detail: string;
}

export interface Unlock {
  need: Need;
  /** Why it is unmet now. */
  reason: string;
  /** What to add to the profile (or the control adapter) to meet it. */
  unlock: string;
  checks: string[];
}

export interface DoctorReport {
  target: string;
  probes: Probe[];
  /** Unmet needs, the most checks first. */
  unlocks: Unlock[];
  checks: { total: number; runnable: number };
  /** 0: reachable and the token accepted; 2: token refused (or a profile/adapter error); 3: unreachable. */
  exitCode: 0 | 2 | 3;
}

export interface DoctorOptions {
  profile: ResolvedProfile;
  model: Model;
  checks: Check[];
  env?: Record<string, string | undefined>;
  cwd?: string;
  controlAdapterFile?: string;
}

/** Whether host:port can be listened on now (the listener is closed at once). */
async function bindable(listen: string): Promise<string | undefined> {
  const { host, port } = parseListen(listen);
  const srv = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      srv.once('error', reject);
      srv.listen(port, host, () => resolve());
    });
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  } finally {
    await new Promise<void>((r) => (srv.listening ? srv.close(() => r()) : r()));
  }
}

/** One request; the answer's status, or why there was none. */
async function reach(session: HttpSession, req: Parameters<ReturnType<HttpSession['client']>['send']>[0]): Promise<{ status?: number; json?: unknown; error?: string }> {
  try {
    const res = await session.client('doctor').send({ ...req, noRetry: true });
    return { status: res.status, json: res.json };
  } catch (err) {
    if (isTransportError(err)) return { error: `${err.code}: ${session.mask(err.message)}` };
    throw err;
  }
}

export async function runDoctor(opts: DoctorOptions): Promise<DoctorReport> {
  const { profile, model } = opts;
  const session = new HttpSession({ profile, model });
  const probes: Probe[] = [];
  const add = (what: string, status: ProbeStatus, detail: string) => probes.push({ what, status, detail: session.mask(detail) });
  let exitCode: DoctorReport['exitCode'] = 0;
  try {
    let token: string | undefined;
    try {
      const pre = await preflight(session);
      token = pre.token;
      add('token (clients[0])', token ? 'ok' : 'problem', token ? `${profile.base_url} issued an S2S token for clients[0]` : (pre.warning ?? 'no token'));
    } catch (err) {
      if (!(err instanceof BaasConformError)) throw err;
      add('token (clients[0])', 'problem', err.message);
      exitCode = err.exitCode === 3 ? 3 : 2;
    }
    let refused: RefusedAuth[] = [];
    if (exitCode === 0) {
      await probeTarget(session, model, token, add);
      refused = await probeOperationAuth(session, model, token, add);
    }
    const adapter = await probeControl(session, opts, add);
    const webhooks = await probeWebhooks(profile, adapter, add);
    const idp = await probeIdp(profile, adapter, add);
    const unlocks = needsReport(opts, adapter, { webhooks, idp, refused });
    const blocked = new Set(unlocks.flatMap((u) => u.checks));
    return { target: profile.base_url, probes, unlocks, checks: { total: opts.checks.length, runnable: opts.checks.filter((c) => !blocked.has(c.id)).length }, exitCode };
  } finally {
    await session.close();
  }
}

async function probeTarget(session: HttpSession, model: Model, token: string | undefined, add: (w: string, s: ProbeStatus, d: string) => void): Promise<void> {
  const { profile } = session;
  const second = profile.clients[1];
  if (second) {
    const req = tokenRequest(model, second);
    const res = await reach(session, { method: req.method, path: req.path, body: req.body });
    const ok = res.status !== undefined && res.status < 300 && typeof field(res.json, 'access_token') === 'string';
    add('token (clients[1])', ok ? 'ok' : 'problem', ok ? 'issued: the company-isolation checks can run' : `answered ${res.error ?? `HTTP ${res.status}`}: check clients[1]`);
  } else add('token (clients[1])', 'missing', 'no clients[1]: a client of a second company unlocks the company-isolation checks');
  if (token) {
    const user = profile.fixtures?.three_ds_pending?.user_id ?? profile.fixtures?.withdrawal_pending?.user_id ?? Object.values(profile.fixtures?.sepa ?? {})[0];
    const op = model.operation(user ? 'getUserV1' : 'getConfig');
    const headers = user ? s2sUserHeaders(model, token, user, profile.chain_id) : { authorization: `Bearer ${token}` };
    const res = await reach(session, { op: op.operationId, headers });
    const what = `${op.method} ${op.path}${user ? ' (a fixture user)' : ''}`;
    add('S2S read', res.status !== undefined && res.status < 300 ? 'ok' : 'problem', `${what} answered ${res.error ?? `HTTP ${res.status}`}${user ? '' : ' (no fixture user named: doctor creates no user)'}`);
  }
  if (profile.pci_url) {
    const res = await reach(session, { method: 'GET', path: '/', server: 'pci' });
    add('pci_url', res.error ? 'problem' : 'ok', res.error ? `${profile.pci_url} cannot be reached: ${res.error}` : `${profile.pci_url} answers (HTTP ${res.status} to GET /)`);
  } else add('pci_url', 'missing', 'not set: the card-tokenization checks skip');
}

async function probeControl(session: HttpSession, opts: DoctorOptions, add: (w: string, s: ProbeStatus, d: string) => void): Promise<ControlAdapter | undefined> {
  const adapter = await resolveControlAdapter(session.profile, opts.model, { file: opts.controlAdapterFile, cwd: opts.cwd, env: opts.env, onSecret: (v) => session.learnedSecrets.add(v) });
  if (!adapter) {
    add('control', 'missing', 'no control_adapter and no control_url: the checks needing a control operation skip');
    return undefined;
  }
  const ops = adapter.operations();
  add('control', 'ok', `${adapter.source} performs ${ops.length} operation(s): ${ops.join(', ')}`);
  if (adapter.kind === 'http') {
    const res = await reach(session, { method: 'GET', path: '/', server: 'control' });
    if (res.error) add('control_url', 'problem', `${session.profile.control_url} cannot be reached: ${res.error}`);
  }
  return adapter;
}

async function probeWebhooks(profile: ResolvedProfile, adapter: ControlAdapter | undefined, add: (w: string, s: ProbeStatus, d: string) => void): Promise<string | undefined> {
  if (profile.webhooks) {
    const problem = await bindable(profile.webhooks.listen);
    add('webhooks', problem ? 'problem' : 'ok', problem ? `webhooks.listen ${profile.webhooks.listen} cannot be bound: ${problem}` : `receiver can listen on ${profile.webhooks.listen}; deliveries expected at ${profile.webhooks.public_url}`);
    return problem ? `webhooks.listen ${profile.webhooks.listen} cannot be bound (${problem})` : undefined;
  }
  if (adapter?.supports('setWebhookBaseUrl')) {
    add('webhooks', 'ok', `a loopback receiver is registered per run through setWebhookBaseUrl (${adapter.source})`);
    return undefined;
  }
  add('webhooks', 'missing', NO_WEBHOOK_ROUTE);
  return NO_WEBHOOK_ROUTE;
}

async function probeIdp(profile: ResolvedProfile, adapter: ControlAdapter | undefined, add: (w: string, s: ProbeStatus, d: string) => void): Promise<string | undefined> {
  const cfg = profile.idp;
  if (!cfg?.enabled) {
    add('idp', 'missing', 'idp.enabled is not true: the identity-provider checks skip');
    return undefined; // unmetNeed names idp.enabled itself
  }
  if (adapter?.supports('setIdpConfig')) {
    add('idp', 'ok', `a test provider is registered per run through setIdpConfig (${adapter.source})`);
    return undefined;
  }
  if (!cfg.app_id || !(cfg.signing_key || cfg.signing_key_file) || !cfg.jwks_url) {
    add('idp', cfg.tokens ? 'ok' : 'missing', cfg.tokens ? 'idp.tokens given (real provider tokens): the token-forging rows skip' : NO_IDP_TRUST);
    return NO_IDP_TRUST;
  }
  const problem = cfg.jwks_listen ? await bindable(cfg.jwks_listen) : undefined;
  const where = cfg.jwks_listen ? `served on ${cfg.jwks_listen} at ${new URL(cfg.jwks_url).pathname} and /.well-known/jwks.json` : 'served on a loopback port';
  add('idp', problem ? 'problem' : 'ok', problem ? `idp.jwks_listen ${cfg.jwks_listen} cannot be bound: ${problem}` : `app ${cfg.app_id}; key set ${where}, registered as ${cfg.jwks_url}`);
  return problem ? `idp.jwks_listen ${cfg.jwks_listen} cannot be bound (${problem})` : undefined;
}

/** Every need of the checks that this profile leaves unmet, with the checks it would unlock. */
function needsReport(opts: DoctorOptions, adapter: ControlAdapter | undefined, problems: { webhooks?: string; idp?: string; refused: RefusedAuth[] }): Unlock[] {
  // The target refused the credentials of a card-tokenization operation: every check that tokenizes is blocked until operation_auth says what to send.
  const pciRefused = problems.refused.filter((r) => opts.model.operations.get(r.op)?.server === 'pci');
  const services = { ...(adapter ? { control: adapter } : {}) };
  const unmet = (need: Need): string | undefined => {
    if (need.includes('|')) {
      const reasons = need.split('|').map((alt) => unmet(alt as Need));
      return reasons.some((r) => r === undefined) ? undefined : reasons.join('; or ');
    }
    if (need === 'webhooks') return problems.webhooks;
    if (need === 'pci' && opts.profile.pci_url && pciRefused.length) return pciRefused.map((r) => r.reason).join('; ');
    if (need === 'idp' || need === 'idp_tokens') {
      if (!opts.profile.idp?.enabled) return unmetNeed(need, opts.profile, opts.model, services);
      if (need === 'idp_tokens' && opts.profile.idp.tokens) return undefined;
      return problems.idp;
    }
    return unmetNeed(need, opts.profile, opts.model, services);
  };
  const byNeed = new Map<Need, string[]>();
  for (const c of opts.checks) for (const n of c.needs ?? []) (byNeed.get(n) ?? byNeed.set(n, []).get(n)!).push(c.id);
  const out: Unlock[] = [];
  for (const [need, checks] of byNeed) {
    const reason = unmet(need);
    if (reason === undefined) continue;
    const unlock = need === 'pci' && opts.profile.pci_url && pciRefused.length ? pciRefused.map((r) => `profile.operation_auth.${r.op} (mode s2s, user or headers)`).join(' and ') : unlockOf(need, needsFacts(opts.model));
    out.push({ need, reason, unlock, checks: [...checks].sort() });
  }
  return out.sort((a, b) => b.checks.length - a.checks.length || a.need.localeCompare(b.need));
}
