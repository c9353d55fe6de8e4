// Client audit (`baas-conform audit`, library `startAudit()`): the embedded reference behind a
// recording front door. A client is pointed at the profile, makes its calls, and the recorded
// exchanges are judged against the client rules of spec/rules/client.yaml.
//   front.ts     base_url / pci_url: record, impose the plan, forward to the reference
//   schedule.ts  which call meets which condition (seeded)      plan.ts   the fault plan
//   tokens.ts    tokens handed out (kind, expires_at, number)    relay.ts  webhooks to the client's receiver
//   judges/      one judge per client rule                       verdict.ts judgements -> verdict
//   report.ts    audit.json, junit.xml, audit.html                console.ts the summary lines
//   redact.ts    what a record keeps (no token, no secret)       catalogue.ts client rules for `rules`
//   bank/        the client bank: the sample client in every mode and applications on real HTTP
//                libraries, each against its own audit (its own entry point: it imports this one)

import { request } from 'undici';
import { controlOperations } from '../control/index.ts';
import { loadModel } from '../model/index.ts';
import { LISTEN_DEFAULTS } from '../options/defaults.ts';
import { startReference, type ReferenceOptions } from '../reference/index.ts';
import { listen } from '../reference/listen.ts';
import { createFront } from './front.ts';
import { DEFAULT_PLAN, resolvePlan, type AuditPlan } from './plan.ts';
import { headerSecretsOf } from './redact.ts';
import { createRelay, type Relay } from './relay.ts';
import { FaultSchedule } from './schedule.ts';
import { TokenBook } from './tokens.ts';
import type { AuditProfile, AuditVerdict, Exchange } from './types.ts';
import { startStallMonitor } from './stalls.ts';
import { DEFAULT_MIN_EXERCISED, judge } from './verdict.ts';

export type { AuditPlan } from './plan.ts';
export { DEFAULT_PLAN, readAuditPlan, resolvePlan } from './plan.ts';
export { writeAuditReports, AUDIT_FILES, type AuditReportPaths } from './report.ts';
export { formatVerdict } from './console.ts';
export { DEFAULT_MIN_EXERCISED } from './verdict.ts';
export { buildAuditHar, writeAuditHar, AUDIT_HAR_CHECK } from './har.ts';
export type { AuditProfile, AuditVerdict, Delivery, Exchange, RuleOutcome } from './types.ts';

export interface AuditOptions {
  /** Port of base_url (0: any free port); pci_url takes any free port unless `pciPort` is given. */
  port?: number;
  pciPort?: number;
  host?: string;
  /** The fault plan (an object of spec/schemas/audit-plan.schema.json); default DEFAULT_PLAN. */
  plan?: unknown;
  /** The client's webhook receiver: webhooks are delivered to it as the plan says. */
  webhookUrl?: string;
  /** Recommended rules fail the verdict too (default: they are warnings). */
  strict?: boolean;
  /**
   * Fewer client rules exercised than this ends the audit inconclusive (exit 4) unless a rule failed;
   * default DEFAULT_MIN_EXERCISED, 0 for none.
   */
  minExercised?: number;
  /**
   * Protect card tokenization as a vendor may (its authentication is not shown): the reference's
   * pciAuth; the client is told in profile.operation_auth, and header credentials are masked in records.
   */
  pciAuth?: ReferenceOptions['pciAuth'];
}

export interface Audit {
  profile: AuditProfile;
  plan: AuditPlan;
  /** Judges what was recorded so far (waits up to 2 s for webhook deliveries under way); `strict` and `minExercised` override the options. */
  verdict(opts?: { strict?: boolean; minExercised?: number }): Promise<AuditVerdict>;
  close(): Promise<void>;
}

/** Exchanges kept per audit (each holds bounded bodies); more are served but not recorded. */
export const MAX_EXCHANGES = 50_000;


const origin = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** A test card (Luhn-valid, a well-known test number) and an expiry two years ahead. */
function testCard(): AuditProfile['test_card'] {
  return { card_number: '4111111111111111', expiry_month: 12, expiry_year: new Date().getUTCFullYear() + 2, cvv: '123' };
}

export async function startAudit(opts: AuditOptions = {}): Promise<Audit> {
  const model = await loadModel();
  const plan = opts.plan === undefined ? DEFAULT_PLAN : await resolvePlan(opts.plan);
  const host = opts.host ?? LISTEN_DEFAULTS.host;
  // Tokens live as long as the plan says, in the JWT's exp as in expires_at.
  const ref = await startReference({ port: 0, pciPort: 0, host: '127.0.0.1', control: true, name: 'audit', s2sValiditySeconds: plan.scale.token_lifetime_seconds, ...(opts.pciAuth ? { pciAuth: opts.pciAuth } : {}) });
  const exchanges: Exchange[] = [];
  let dropped = 0;
  const monitor = startStallMonitor();
  const book = new TokenBook();
  const controlPath = ref.profile.control_url ? new URL(ref.profile.control_url).pathname : undefined;
  const front = createFront({
    model, book, schedule: new FaultSchedule(plan),
    upstream: { api: ref.profile.base_url, pci: ref.profile.pci_url! },
    paths: ref.profile.operations ?? {},
    headerSecrets: headerSecretsOf(ref.profile.operation_auth),
    ...(controlPath ? { controlPrefix: controlPath } : {}),
    record(ex) {
      const full = { ...ex, seq: exchanges.length + 1 } as Exchange;
      // Bounded: an audit is minutes of a client's traffic; past the cap calls are served, not kept.
      if (exchanges.length < MAX_EXCHANGES) exchanges.push(full);
      else dropped++;
      return full;
    },
  });
  let relay: Relay | undefined;
  try {
    const apiPort = await listen(front.api, opts.port ?? 0, host);
    const pciPort = await listen(front.pci, opts.pciPort ?? 0, host);
    if (opts.webhookUrl) {
      relay = createRelay(opts.webhookUrl, plan.webhooks);
      const relayPort = await listen(relay.server, 0, '127.0.0.1');
      await setWebhookBase(model, ref.profile.control_url!, origin('127.0.0.1', relayPort));
    }
    const client = ref.profile.clients[0];
    const profile: AuditProfile = {
      side: 'client',
      base_url: origin(host === '0.0.0.0' ? '127.0.0.1' : host, apiPort),
      pci_url: origin(host === '0.0.0.0' ? '127.0.0.1' : host, pciPort),
      ...(controlPath ? { control_url: `${origin(host === '0.0.0.0' ? '127.0.0.1' : host, apiPort)}${controlPath}` } : {}),
      credentials: { client_id: client.client_id, client_secret: client.client_secret },
      chain_id: ref.profile.chain_id ?? model.auth.sandbox_chain_id ?? '',
      request_timeout_seconds: plan.scale.request_timeout_seconds,
      token_refresh_buffer_seconds: plan.scale.refresh_buffer_seconds,
      test_card: testCard(),
      ...(opts.webhookUrl ? { webhook_url: opts.webhookUrl } : {}),
      ...(ref.profile.operation_auth ? { operation_auth: ref.profile.operation_auth } : {}),
    };
    let closed: Promise<void> | undefined;
    return {
      profile,
      plan,
      async verdict(o = {}) {
        await relay?.drain(2000);
        return { ...judge({ model, plan, exchanges, deliveries: relay?.deliveries ?? [], webhooks: !!relay, strict: o.strict ?? !!opts.strict, stalls: monitor.stalls(), minExercised: o.minExercised ?? opts.minExercised ?? DEFAULT_MIN_EXERCISED }), dropped };
      },
      close() {
        closed ??= (async () => {
          monitor.stop();
          await front.close();
          await relay?.close();
          await ref.close();
        })();
        return closed;
      },
    };
  } catch (e) {
    monitor.stop();
    await front.close();
    await relay?.close();
    await ref.close();
    throw e;
  }
}

/** Points the reference's webhooks at the relay (control operation setWebhookBaseUrl). */
async function setWebhookBase(model: Awaited<ReturnType<typeof loadModel>>, controlUrl: string, base: string): Promise<void> {
  const op = controlOperations(model).get('setWebhookBaseUrl');
  if (!op) throw new Error('spec/control.yaml has no setWebhookBaseUrl: the audit cannot deliver webhooks');
  const res = await request(`${controlUrl}${op.path}`, {
    method: op.method as 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ [op.bodyFields[0]]: base }),
  });
  await res.body.dump();
  if (res.statusCode >= 300) throw new Error(`the reference refused the webhook base URL (HTTP ${res.statusCode})`);
}
export { clientRuleCatalogue, type ClientCatalogueEntry } from './catalogue.ts';
