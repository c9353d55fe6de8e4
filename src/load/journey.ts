// The journey scenario: the documented partner flow per virtual user, step after step, with think
// times: S2S token, user creation, user token (section 5 user token issuance), card creation, card
// tokenization and a Card recipient, Push to Card estimate and execute (section 4 rule 3), and the
// activity webhook that reports the transfer (section 6 rule 1). Each step is an operation of the
// model, so the result's per-operation figures are the per-step percentiles; the webhook step runs
// from the execute answer to the delivery. Closed model: the shape gives the virtual users; open
// model: it gives journeys started per second. Every answer is judged like any other load answer.

import { request } from 'undici';
import type { Histogram } from 'hdr-histogram-js';
import type { WebhookReceiver } from '../checks/types.ts';
import { HttpSession } from '../client/http.ts';
import { startServices } from '../runner/services.ts';
import type { Model, OperationId } from '../model/index.ts';
import type { EngineOptions, EngineRun, OpStats } from './engine-types.ts';
import { newOpStats } from './engine-types.ts';
import { newHistogram, toMicros } from './histogram.ts';
import type { LoadJudge } from './judge.ts';
import { userHeaders } from './mix.ts';
import { arrivalTimes, shapeDurationMs, valueAt, type Shape } from './schedule.ts';
import { newUserBody, operation, targetPath, tokenBody, type SetupHttp } from './setup.ts';
import { Timeline } from './timeline.ts';
import { refreshBufferSec } from './tokens.ts';

export const JOURNEY_STEPS = ['createToken', 'createUserV2', 'authorizeUser', 'createVirtualCard', 'tokenizeCard', 'createRecipientV2', 'estimateCardTransfer', 'executeCardTransfer', 'webhookActivities'] as const;

export interface JourneyOptions {
  http: SetupHttp;
  kind: 'open' | 'closed';
  /** closed: virtual users over time; open: journeys started per second. */
  shape: Shape;
  /** At most this many step requests. */
  maxRequests: number;
  thinkTimeMs: number;
  drainMs: number;
  judge?: LoadJudge;
  /** The receiver the target delivers to; without it the webhook step is left out (a note says so). */
  webhooks?: WebhookReceiver;
  webhookTimeoutMs: number;
  arrivals?: { kind: 'uniform' | 'poisson'; seed: number };
  onSettled?: (op: string, status: number, us: number, kind: 'status' | 'timeout' | 'transport' | 'incomplete') => void;
  live?: EngineOptions['live'];
  onProgress?: EngineOptions['onProgress'];
  stopWhen?: EngineOptions['stopWhen'];
}

export interface JourneyRun extends EngineRun {
  journeys: { started: number; completed: number; broken: Record<string, number> };
}

class StepFailed extends Error {}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const is2xx = (s: number) => s >= 200 && s < 300;

function testCard(): Record<string, string> {
  return { card_number: '4111111111111111', expiry_month: '12', expiry_year: String(new Date().getUTCFullYear() + 3), cvv: '123', holder_name: 'Ada Lovelace' };
}

export async function runJourneys(o: JourneyOptions): Promise<JourneyRun> {
  const { http: s } = o;
  const model: Model = s.model;
  const overall = newHistogram();
  const ops = new Map<string, OpStats>();
  const sendMs = shapeDurationMs(o.shape);
  const timeline = new Timeline(Math.ceil((sendMs + o.drainMs) / 1000) + 2);
  const journeys = { started: 0, completed: 0, broken: {} as Record<string, number> };
  let sent = 0;
  let completed = 0;
  let errors = 0;
  let inFlight = 0;
  // After the drain nothing more is sent, and what is still in flight is aborted and reported.
  const stop = new AbortController();
  const pending = new Set<{ op: string; start: number }>();
  let maxInFlight = 0;
  let sending = true;
  const startedAt = new Date();
  const t0 = performance.now();
  const stat = (op: string) => {
    let st = ops.get(op);
    if (!st) ops.set(op, (st = newOpStats()));
    return st;
  };
  const record = (op: string, start: number, kind: 'status' | 'timeout' | 'transport', status = 0, errKind = '') => {
    const now = performance.now();
    const us = toMicros(now - start);
    const st = stat(op);
    overall.recordValue(us);
    st.hist.recordValue(us);
    const b = timeline.at((now - t0) / 1000);
    b.hist.recordValue(us);
    b.completed++;
    completed++;
    o.onSettled?.(op, status, us, kind);
    if (kind === 'status') {
      st.status[status] = (st.status[status] ?? 0) + 1;
      if (is2xx(status)) b.ok++;
      else b.errors++;
      if (status === 429) b.s429++;
    } else {
      if (kind === 'timeout') {
        st.timeouts++;
        b.timeouts++;
      } else {
        st.transport++;
        st.error_kinds[errKind] = (st.error_kinds[errKind] ?? 0) + 1;
      }
      b.errors++;
    }
    if (kind !== 'status' || !is2xx(status)) errors++;
  };

  /** One step: sends, records, judges; a non-2xx or a transport failure ends the journey at this step. */
  const step = async (op: OperationId, headers: Record<string, string>, body?: Record<string, unknown>): Promise<Record<string, unknown> | undefined> => {
    const where = operation(s, op);
    const server = model.operation(op).server;
    const origin = server === 'pci' ? s.profile.pci_url : s.profile.base_url;
    const tpl = s.profile.request_templates?.[op];
    const b = body && tpl ? Object.fromEntries(Object.entries({ ...body, ...tpl }).filter(([, v]) => v !== null)) : body;
    const text = b === undefined ? undefined : JSON.stringify(b);
    const path = server === 'pci' ? where.path : targetPath(s.profile, where.path);
    if (stop.signal.aborted) throw new StepFailed('stopped');
    sent++;
    timeline.at((performance.now() - t0) / 1000).sent++;
    const start = performance.now();
    const mine = { op, start };
    pending.add(mine);
    inFlight++;
    if (o.live) o.live.inFlight = inFlight;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    try {
      const res = await request(new URL(path, origin!), {
        method: where.method as 'POST',
        headers: text === undefined ? headers : { 'content-type': 'application/json', ...headers },
        ...(text !== undefined ? { body: text } : {}),
        signal: AbortSignal.any([AbortSignal.timeout(s.timeoutMs), stop.signal]),
        ...(s.dispatcher ? { dispatcher: s.dispatcher } : {}),
      });
      const answer = await res.body.text();
      record(op, start, 'status', res.statusCode);
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') h[k] = v;
      if (o.judge?.wants()) o.judge.judge({ op, method: where.method, path, ...(text !== undefined ? { body: text } : {}) }, res.statusCode, h, answer);
      if (!is2xx(res.statusCode)) throw new StepFailed(op);
      try {
        return answer ? JSON.parse(answer) : undefined;
      } catch {
        throw new StepFailed(op);
      }
    } catch (err) {
      if (err instanceof StepFailed || stop.signal.aborted) throw err instanceof StepFailed ? err : new StepFailed('stopped');
      const timedOut = performance.now() - start >= s.timeoutMs || (err as Error).name === 'TimeoutError';
      record(op, start, timedOut ? 'timeout' : 'transport', 0, (err as { code?: string }).code ?? (err as Error).name);
      throw new StepFailed(op);
    } finally {
      inFlight--;
      if (o.live) o.live.inFlight = inFlight;
      pending.delete(mine);
    }
  };
  const think = () => (o.thinkTimeMs > 0 ? sleep(o.thinkTimeMs) : Promise.resolve());
  const chain = model.auth.chain_header.toLowerCase();
  // The S2S form of the user-token exchange names the user by its EOA address (section 5).
  const wallet = (model.auth.identity_headers.find((h) => /wallet/i.test(h)) ?? model.auth.identity_headers[0]).toLowerCase();

  // The partner backend caches its S2S token and refreshes it the section 8 buffer before expires_at
  // (section 5): the token step runs when the cache is empty or due, once for all journeys waiting.
  let cached: { token: string; refreshAt: number } | undefined;
  let fetching: Promise<string> | undefined;
  const buffer = refreshBufferSec(model) * 1000;
  const s2s = async (): Promise<string> => {
    if (cached && Date.now() < cached.refreshAt) return cached.token;
    fetching ??= (async () => {
      try {
        const t = await step('createToken', {}, tokenBody(s.profile.clients[0], model));
        const expires = typeof t?.expires_at === 'number' ? t.expires_at * 1000 : Date.now() + 60_000;
        cached = { token: String(t?.access_token), refreshAt: Math.max(Date.now() + 1000, expires - buffer) };
        await think();
        return cached.token;
      } finally {
        fetching = undefined;
      }
    })();
    return fetching;
  };

  const journey = async () => {
    journeys.started++;
    try {
      const token = await s2s();
      const userBody = newUserBody(model);
      const created = await step('createUserV2', { authorization: `Bearer ${token}` }, userBody);
      const userId = typeof created === 'string' ? created : (created?.user_id ?? created?.id);
      await think();
      const address = String(Object.values(userBody).find((v) => /^0x/.test(String(v))) ?? '');
      const userToken = (await step('authorizeUser', { authorization: `Bearer ${token}`, [wallet]: address, [chain]: s.profile.chain_id }))?.access_token as string;
      const asUser = userToken ? { authorization: `Bearer ${userToken}`, [chain]: s.profile.chain_id } : userHeaders(model, token, String(userId), s.profile.chain_id);
      await think();
      await step('createVirtualCard', asUser, { card_name: `journey ${journeys.started}` });
      await think();
      const cardToken = (await step('tokenizeCard', {}, testCard()))?.card_token;
      await think();
      const recipient = await step('createRecipientV2', asUser, { type: 'Card', first_name: 'Ada', last_name: 'Lovelace', is_business: false, card_token: cardToken });
      const details = Array.isArray(recipient?.payment_details) ? recipient.payment_details : [recipient?.payment_details];
      const pd = (details.find((d) => (d as { type?: unknown } | null)?.type === 'Card') ?? details[0]) as { id?: unknown } | undefined;
      await think();
      const estimate = await step('estimateCardTransfer', asUser, { amount: '10.00', currency: 'EUR', ...(recipient?.id ? { recipient_id: recipient.id } : {}), payment_details_id: pd?.id });
      await think();
      const executed = await step('executeCardTransfer', asUser, { estimation_id: estimate?.estimation_id });
      if (o.webhooks) {
        const activityId = String(executed?.activity_id ?? '');
        const start = performance.now();
        sent++;
        const mine = { op: 'webhookActivities', start };
        pending.add(mine);
        const got = await o.webhooks.waitFor(model.webhookPath('activities'), (body) => JSON.stringify(body ?? '').includes(activityId), o.webhookTimeoutMs, stop.signal);
        pending.delete(mine);
        if (stop.signal.aborted) throw new StepFailed('stopped');
        if (got) record('webhookActivities', start, 'status', 200);
        else {
          record('webhookActivities', start, 'timeout');
          throw new StepFailed('webhookActivities');
        }
      }
      journeys.completed++;
    } catch (err) {
      const at = err instanceof StepFailed ? err.message : 'client';
      journeys.broken[at] = (journeys.broken[at] ?? 0) + 1;
    }
  };

  const running = new Set<Promise<void>>();
  const launch = (p: Promise<void>) => {
    running.add(p);
    void p.finally(() => running.delete(p));
  };
  const room = () => sending && sent < o.maxRequests;
  let users = 0;
  const user = async () => {
    users++;
    while (room() && users <= Math.round(valueAt(o.shape, performance.now() - t0))) {
      await journey();
      await think();
    }
    users--;
  };
  let timer: NodeJS.Timeout | undefined;
  if (o.kind === 'closed') {
    const control = () => {
      while (room() && users < Math.round(valueAt(o.shape, performance.now() - t0))) launch(user());
    };
    control();
    timer = setInterval(control, 50);
  } else {
    const times = arrivalTimes(o.shape, o.maxRequests, o.arrivals);
    let next = times.next();
    const tick = () => {
      const now = performance.now() - t0;
      while (!next.done && next.value <= now && room()) {
        launch(journey());
        next = times.next();
      }
      if (room() && !next.done) timer = setTimeout(tick, Math.max(0, Math.min(20, next.value - (performance.now() - t0))));
    };
    tick();
  }
  let lastCompleted = 0;
  let lastAt = t0;
  const progress = o.onProgress
    ? setInterval(() => {
        const now = performance.now();
        o.onProgress!({ elapsed_s: (now - t0) / 1000, rps: ((completed - lastCompleted) * 1000) / Math.max(1, now - lastAt), p99_ms: overall.totalCount ? overall.getValueAtPercentile(99) / 1000 : 0, errors, in_flight: inFlight, queued: 0, completed });
        lastCompleted = completed;
        lastAt = now;
      }, 1000)
    : undefined;
  let stopped: { at_s: number; reason: string } | undefined;
  let watch: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    const end = setTimeout(resolve, sendMs);
    if (o.stopWhen)
      watch = setInterval(() => {
        const elapsed = performance.now() - t0;
        const reason = o.stopWhen!(timeline, elapsed);
        if (!reason) return;
        stopped = { at_s: Math.round(elapsed) / 1000, reason };
        clearTimeout(end);
        resolve();
      }, 250);
  });
  clearInterval(watch);
  sending = false;
  clearInterval(timer);
  clearTimeout(timer);
  // Journeys under way finish their current step chain within the drain; what is left is reported.
  let drainTimer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...running]), new Promise<void>((r) => (drainTimer = setTimeout(r, o.drainMs)))]);
  clearTimeout(drainTimer);
  const end = performance.now();
  const incomplete = [...pending].map((p) => ({ op: p.op, age_ms: Math.round(end - p.start) }));
  for (const p of pending) {
    const st = stat(p.op);
    st.incomplete++;
    st.hist.recordValue(toMicros(end - p.start));
    overall.recordValue(toMicros(end - p.start));
    o.onSettled?.(p.op, 0, toMicros(end - p.start), 'incomplete');
  }
  stop.abort();
  clearInterval(progress);
  await Promise.allSettled([...running]);
  return {
    started_at: startedAt,
    wall_ms: end - t0,
    send_ms: stopped ? stopped.at_s * 1000 : sendMs,
    overall: overall as Histogram,
    ops,
    timeline,
    sent,
    late: { count: 0, max_ms: 0, total_ms: 0, waited_for_connection: 0 },
    incomplete,
    max_in_flight: maxInFlight,
    journeys,
    ...(stopped ? { stopped } : {}),
  };
}

/** The journey scenario's run: the webhook receiver registered as `run` registers it, the journeys, notes. */
export async function journeyScenarioRun(o: Omit<JourneyOptions, 'webhooks' | 'webhookTimeoutMs'>, notes: string[]): Promise<EngineRun> {
  const s = o.http;
  const session = new HttpSession({ profile: s.profile, model: s.model, timeoutBudgetMs: s.timeoutMs });
  const services = await startServices(session, { idp: false, webhooks: true });
  try {
    const webhooks = services.services.webhooks;
    const webhookTimeoutMs = s.profile.webhook_timeout_ms ?? s.timeoutMs;
    if (!webhooks) notes.push(`journey: the activity webhook step is left out: ${services.problems.webhooks ?? 'no webhook receiver'}`);
    const run = await runJourneys({ ...o, ...(webhooks ? { webhooks } : {}), webhookTimeoutMs });
    const j = run.journeys;
    const broken = Object.entries(j.broken).map(([at, n]) => `${n} at ${at}`).join(', ');
    notes.push(
      `journey: ${j.started} journeys started, ${j.completed} completed end to end${broken ? `, broken: ${broken}` : ''}; steps ${JOURNEY_STEPS.filter((x) => webhooks || x !== 'webhookActivities').join(' -> ')}, think time ${o.thinkTimeMs} ms; per-step percentiles are the per-operation figures (latency from each step's own send; the S2S token is cached across journeys and refreshed the section 8 buffer before expires_at, as section 5 recommends; the webhook step from the execute answer to the delivery, waited up to ${webhookTimeoutMs} ms)`,
    );
    return run;
  } finally {
    await services.close();
  }
}
