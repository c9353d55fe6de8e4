// Section 4 rule 3, Push to Card end to end: tokenize the card in the card-tokenization environment,
// create a Card recipient with the card_token, estimate, execute, and receive the activity webhook
// (section 6 rule 1) carrying the activity_id.

import {
  opLabel,
  expectSchema, type TestUser, asUser, check, checkStep, createUser, expect2xx, expectStep, expectWebhookSchema, is2xx, listItems, mentionsDeep, requestBody, settleActivity,
  webhookPath, webhookTimeoutMs, warnReading, field, sendWithProfileAuth
} from '../kit/index.ts';
import type { CheckContext, HttpResponse, ReceivedWebhook } from '../../src/checks/types.ts';
import { CheckFailure } from '../../src/checks/signals.ts';
import type { Driver, Drivers } from './driver.ts';
import { expectActivityReported } from './activity-report.ts';
import { sepaRecipientDrivers } from './recipients-sepa.ts';
import type { RuleId } from '../../src/model/types.ts';

/** Default card details for tokenization (a well-known test PAN); the payload is not shown, profile.request_templates.tokenizeCard adjusts it. */
export function testCard(): Record<string, unknown> {
  return { card_number: '4111111111111111', expiry_month: '12', expiry_year: '2030', cvv: '123', holder_name: 'Ada Lovelace' };
}

export async function tokenize(ctx: CheckContext, user?: TestUser): Promise<{ token: string; res: HttpResponse }> {
  if (!ctx.profile.pci_url) ctx.skip('needs the card-tokenization environment: profile.pci_url is not set');
  // A step for most callers: a recipient check is blocked, not failed, when tokenization is missing or
  // unreachable, and blocked naming profile.operation_auth when its credentials (not shown) are refused.
  const res = await sendWithProfileAuth(ctx, { op: 'tokenizeCard', server: 'pci', body: requestBody(ctx, 'tokenizeCard', testCard()) }, `${opLabel(ctx, 'tokenizeCard')} on {pci_url}`, { user });
  const token = field(res.json, 'card_token');
  checkStep(token !== undefined && token !== null && token !== '', 'tokenizeCard', `card tokenization answered no card_token: ${res.text.slice(0, 200)}`, res);
  return { token: String(token), res };
}

export function paymentDetailsOf(json: unknown): unknown[] {
  const pd = field(json, 'payment_details');
  return Array.isArray(pd) ? pd : pd && typeof pd === 'object' ? [pd] : [];
}

/** Default create input of a Card recipient (section 2 individual fields + section 4 type Card); card_token comes from tokenization. */
const CARD_RECIPIENT = { type: 'Card', first_name: 'Ada', last_name: 'Lovelace', is_business: false };

/** Steps 1-2: tokenize and create the Card recipient; returns the recipient id and payment_details.id. */
export async function pushToCardRecipient(ctx: CheckContext, user: TestUser) {
  const { token } = await tokenize(ctx, user);
  return createCardRecipient(ctx, user, token);
}

/** Step 2 alone: the Card recipient for a card_token; returns the recipient id and payment_details.id. */
export async function createCardRecipient(ctx: CheckContext, user: TestUser, token: string) {
  const sent = requestBody(ctx, 'createRecipientV2', CARD_RECIPIENT, { card_token: token }) as Record<string, unknown>;
  const res = await asUser(ctx, user, { op: 'createRecipientV2', body: sent });
  expectStep(res, 'createRecipientV2', `${opLabel(ctx, 'createRecipientV2')} (type Card with the card_token)`);
  const details = paymentDetailsOf(res.json);
  const cardId = field(details.find((d) => field(d, 'type') === 'Card') ?? details[0], 'id');
  checkStep(cardId !== undefined && cardId !== null, 'createRecipientV2', `the Card recipient has no payment_details.id: ${res.text.slice(0, 300)}`, res);
  return { res, sent, recipientId: (field(res.json, 'id') ?? undefined) as string | undefined, paymentDetailsId: String(cardId) };
}

/** Step 3: estimate (body from profile.request_templates.estimateCardTransfer over the defaults). */
export async function estimateTransfer(ctx: CheckContext, user: TestUser, r: { recipientId?: string; paymentDetailsId: string }, amount = '10.00'): Promise<HttpResponse> {
  return asUser(ctx, user, {
    op: 'estimateCardTransfer',
    body: requestBody(ctx, 'estimateCardTransfer', { amount, currency: 'EUR' }, { ...(r.recipientId ? { recipient_id: r.recipientId } : {}), payment_details_id: r.paymentDetailsId }),
  });
}

/** Step 4: execute using the estimate. */
export async function executeTransfer(ctx: CheckContext, user: TestUser, estimationId: unknown): Promise<HttpResponse> {
  return asUser(ctx, user, { op: 'executeCardTransfer', body: requestBody(ctx, 'executeCardTransfer', {}, { estimation_id: estimationId }) });
}

/**
 * A recipient that also carries crypto details: the section 2 Recipient field (recipient_address, the
 * preferred name of ALIAS-RECIPIENT-ADDRESS) sent on create (the spec shows no other way to create
 * crypto details). Undefined when the target refuses it.
 */
export async function cryptoRecipient(ctx: CheckContext, user: TestUser, address: string): Promise<HttpResponse | undefined> {
  const rule = ctx.model.rule('ALIAS-RECIPIENT-ADDRESS');
  if (rule.kind !== 'alias') throw new Error('ALIAS-RECIPIENT-ADDRESS is not an alias rule');
  const { token } = await tokenize(ctx, user);
  const res = await asUser(ctx, user, { op: 'createRecipientV2', body: { ...requestBody(ctx, 'createRecipientV2', CARD_RECIPIENT, { card_token: token }), [rule.new]: address } });
  return is2xx(res) ? res : undefined;
}

/** The first string `status` in a body (breadth first, 4 levels): the activity payloads are not shown. */
export function statusOf(body: unknown): string | undefined {
  let level: unknown[] = [body];
  for (let depth = 0; depth < 4 && level.length > 0; depth++) {
    const next: unknown[] = [];
    for (const o of level) {
      if (o === null || typeof o !== 'object') continue;
      if (!Array.isArray(o) && typeof (o as { status?: unknown }).status === 'string') return (o as { status: string }).status;
      next.push(...(Array.isArray(o) ? o : Object.values(o)));
    }
    level = next;
  }
  return undefined;
}

/**
 * The activity's status as the target reads it: activity by id, else the feed's item carrying the id
 * (both paths come from profile.operations; the spec does not show them). Undefined when neither is
 * given, the read is refused, or the item carries no string status.
 */
export async function activityStatus(ctx: CheckContext, user: TestUser, activityId: string): Promise<string | undefined> {
  const ops = ctx.profile.operations ?? {};
  if (ops.getActivity) {
    const res = await asUser(ctx, user, { op: 'getActivity', params: { activity_id: activityId } });
    const status = is2xx(res) ? field(res.json, 'status') : undefined;
    return typeof status === 'string' ? status : undefined;
  }
  if (ops.listActivity) {
    const res = await asUser(ctx, user, { op: 'listActivity' });
    const item = is2xx(res) ? listItems(res.json).find((it) => mentionsDeep(it, activityId)) : undefined;
    const status = field(item, 'status');
    return typeof status === 'string' ? status : undefined;
  }
  return undefined;
}

const ACTIVITY_POLL_MS = 1000;

/**
 * Section 6: "Transaction status, including card-transfer completion, is reported by activity webhooks".
 * The status words are not shown, so the target's own reads define them: the statuses the transfer had
 * before it completed (the execute answer, the activity read before settling) minus the one the activity
 * reads once complete. Some delivery for the activity must report a status outside that pending set (or
 * carry none) before the deadline; Pending deliveries before or after it, and duplicates, are allowed.
 * Nothing is judged when the activity cannot be read or its status never changes.
 */
async function expectCompletionReported(ctx: CheckContext, user: TestUser, o: { activityId: string; path: string; before: unknown[]; settled: boolean; deadline: number }): Promise<void> {
  const defaultWait = !o.settled && ctx.profile.webhook_timeout_ms === undefined;
  const pre = new Set(o.before.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase()));
  let after = await activityStatus(ctx, user, o.activityId);
  // A target settling on its own schedule: poll the read (bounded by the webhook deadline) until it moves.
  for (let i = 0; !o.settled && after !== undefined && pre.has(after.toLowerCase()) && Date.now() + ACTIVITY_POLL_MS < o.deadline && i < 600; i++) {
    await new Promise((r) => setTimeout(r, ACTIVITY_POLL_MS));
    after = await activityStatus(ctx, user, o.activityId);
  }
  if (after === undefined) return ctx.log('the activity cannot be read (profile.operations.getActivity / listActivity) or carries no status: the completion status of the activity webhook is not compared');
  pre.delete(after.toLowerCase());
  if (pre.size === 0) return ctx.log(`the activity read ${JSON.stringify(after)} matches no earlier status: the completion status of the activity webhook is not compared`);
  const completes = (b: unknown) => mentionsDeep(b, o.activityId) && !pre.has(String(statusOf(b) ?? after).toLowerCase());
  const done = await ctx.services.webhooks!.waitFor(o.path, completes, Math.max(0, o.deadline - Date.now()), ctx.signal);
  const seen = ctx.services.webhooks!.all().filter((w) => w.path === o.path && mentionsDeep(w.body, o.activityId)).map((w) => statusOf(w.body));
  if (!done && defaultWait) {
    return warnReading(ctx, 'EVENT-CARD-TRANSFER-ACTIVITY', 'delivery-time', `the activity ${o.activityId} reads ${JSON.stringify(after)}, but no activity webhook reported its completion within the default wait (reported: ${JSON.stringify([...new Set(seen)])}; set profile.webhook_timeout_ms to wait longer)`);
  }
  check(done, `the activity ${o.activityId} reads ${JSON.stringify(after)}, but its activity webhooks on ${o.path} only reported ${JSON.stringify([...new Set(seen)])} (statuses before completion: ${JSON.stringify([...pre])}): completion was not reported within the webhook wait (section 6; profile.webhook_timeout_ms)`, { rules: ['EVENT-CARD-TRANSFER-ACTIVITY'] });
}

/**
 * The wait for the activity webhook of a transfer the control API did not settle, with no profile
 * wait: up to the default unsettled wait, polling the activity read (when the profile gives it). Once
 * the read shows the transfer completed (a status outside those it had before), the webhook is owed as
 * after a control settlement: it must come within the settled wait of that read, or the rule fails
 * (reading delivery-time). `completed` is the completed status the read showed, if it did.
 */
async function awaitUnsettled(ctx: CheckContext, user: TestUser, o: { activityId: string; path: string; pre: unknown[]; timeout: number }): Promise<{ hook?: ReceivedWebhook; completed?: string }> {
  const hooks = ctx.services.webhooks!;
  const pre = new Set(o.pre.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase()));
  const readable = pre.size > 0 && (ctx.profile.operations?.getActivity !== undefined || ctx.profile.operations?.listActivity !== undefined);
  const ours = (w: ReceivedWebhook) => w.path === o.path && mentionsDeep(w.body, o.activityId);
  let deadline = Date.now() + o.timeout;
  let completed: string | undefined;
  for (let i = 0; i <= Math.ceil(o.timeout / ACTIVITY_POLL_MS) + 1 && !ctx.signal.aborted; i++) {
    const hook = hooks.all().find(ours);
    if (hook) return { hook, ...(completed !== undefined ? { completed } : {}) };
    if (Date.now() >= deadline) break;
    if (readable && completed === undefined) {
      const now = await activityStatus(ctx, user, o.activityId);
      if (now !== undefined && !pre.has(now.toLowerCase())) {
        completed = now;
        deadline = Math.min(deadline, Date.now() + webhookTimeoutMs(ctx, true));
        ctx.log(`the activity ${o.activityId} reads ${JSON.stringify(now)}: the transfer completed, so its activity webhook is owed within ${webhookTimeoutMs(ctx, true) / 1000} s`);
      }
    }
    await new Promise((r) => setTimeout(r, ACTIVITY_POLL_MS));
  }
  const hook = hooks.all().find(ours);
  return { ...(hook ? { hook } : {}), ...(completed !== undefined ? { completed } : {}) };
}

const AS_CREATED: RuleId[] = ['ENDPOINT-RECIPIENT-AS-CREATED'];

/**
 * personal_info of a recipient answer against the create input (section 2: personal_info
 * { first_name, last_name }; create input first_name, last_name). Section 4 shows only
 * payment_details.id on the answer, so an answer without personal_info, or with personal_info null
 * (ENDPOINT-RESPONSE-SCHEMA reading null-when-optional), asserts nothing (reading
 * personal-info-when-present); one carrying it must have the shape and the values sent.
 */
export function expectRecipientAsCreated(ctx: CheckContext, res: HttpResponse, sent: Record<string, unknown>, where: string): void {
  const body = res.json;
  if (body === null || typeof body !== 'object' || (body as { personal_info?: unknown }).personal_info == null) {
    // The names sent, reported at the top level instead (reading names-in-personal-info): the documented structure moved.
    const flat = (['first_name', 'last_name'] as const).filter((f) => typeof sent[f] === 'string' && field(body, f) === sent[f]);
    check(flat.length === 0, `${where} reports ${flat.join(' and ')} at its top level with no personal_info: section 2 documents the names as personal_info { first_name, last_name } (reading names-in-personal-info)`, { rules: AS_CREATED, response: res });
    ctx.log(`${where} carries no personal_info; the names sent are not compared (section 4 shows only payment_details.id)`);
    return;
  }
  const pi = (body as { personal_info: unknown }).personal_info;
  check(typeof pi === 'object' && !Array.isArray(pi), `${where}: personal_info is ${JSON.stringify(pi)?.slice(0, 120)}, not an object { first_name, last_name } (section 2 Recipient)`, { rules: AS_CREATED, response: res });
  const fails: string[] = [];
  for (const f of ['first_name', 'last_name'] as const) {
    if (typeof sent[f] !== 'string') continue;
    const got = (pi as Record<string, unknown>)[f];
    if (got !== sent[f]) fails.push(`personal_info.${f} ${JSON.stringify(got)}, sent ${JSON.stringify(sent[f])}`);
  }
  check(fails.length === 0, `${where}: ${fails.join('; ')}`, { rules: AS_CREATED, response: res });
}

/** The recipient as created, on the create answer and on the recipient read when the profile gives its path (not shown). */
async function expectRecipientReads(ctx: CheckContext, user: TestUser, r: { res: HttpResponse; sent: Record<string, unknown>; recipientId?: string }): Promise<void> {
  expectRecipientAsCreated(ctx, r.res, r.sent, `the ${opLabel(ctx, 'createRecipientV2')} answer`);
  if (!ctx.profile.operations?.getRecipient || r.recipientId === undefined) return;
  const read = await asUser(ctx, user, { op: 'getRecipient', params: { recipient_id: String(r.recipientId) } });
  if (!is2xx(read)) return ctx.log(`the recipient read (profile.operations.getRecipient) answered HTTP ${read.status}; personal_info is compared on the create answer only`);
  expectRecipientAsCreated(ctx, read, r.sent, `recipient ${r.recipientId} read back`);
}

// ---- A recipient delete takes effect (section 4 "Recipients: list, get, ... create, update, delete";
// ENDPOINT-RECIPIENT-DELETE-EFFECT): a success answer is not an effect, so the recipient is read back
// by its id (profile.operations.getRecipient: the paths are not shown) until it is gone, a bounded time.

const DELETE_RULES: RuleId[] = ['ENDPOINT-RECIPIENT-DELETE-EFFECT'];
/** How long the read is polled for a delete to show (when it shows is not shown). */
const DELETE_WAIT_MS = 10_000;
const POLL_MS = 250;

/** Whether an answer of the recipient read still carries recipient `id` (reading deleted-not-readable). */
const carries = (res: HttpResponse, id: string): boolean => is2xx(res) && String(field(res.json, 'id') ?? field(res.json, 'data', 'id')) === id;

async function readUntilGone(ctx: CheckContext, read: () => Promise<HttpResponse>, id: string): Promise<HttpResponse> {
  const end = Date.now() + DELETE_WAIT_MS;
  for (let i = 0; i <= Math.ceil(DELETE_WAIT_MS / POLL_MS); i++) {
    const res = await read();
    if (!carries(res, id) || Date.now() >= end) return res;
    await new Promise((r) => setTimeout(r, POLL_MS));
    ctx.signal.throwIfAborted();
  }
  return read();
}

const recipientDeleteEffect: Driver = {
  title: 'A recipient deleted with a 2xx is no longer returned by the recipient read of its id (polled up to 10 s; any non-2xx, or a 2xx without it); a refused delete judges nothing (paths from profile.operations)',
  safe: false,
  needs: ['pci', 'operation:deleteRecipient', 'operation:getRecipient'],
  async run(ctx) {
    const user = await createUser(ctx);
    const r = await pushToCardRecipient(ctx, user);
    checkStep(r.recipientId !== undefined && r.recipientId !== null, 'createRecipientV2', `the Card recipient answer carries no id: ${r.res.text.slice(0, 200)}`, r.res);
    const id = String(r.recipientId);
    const read = () => asUser(ctx, user, { op: 'getRecipient', params: { recipient_id: id } });
    const before = await read();
    expectStep(before, 'getRecipient', `${opLabel(ctx, 'getRecipient')} of the recipient just created`);
    checkStep(carries(before, id), 'getRecipient', `${opLabel(ctx, 'getRecipient')} of recipient ${id} answered no recipient with that id: ${before.text.slice(0, 200)}`, before);
    const del = await asUser(ctx, user, { op: 'deleteRecipient', params: { recipient_id: id } });
    if (!is2xx(del)) ctx.skip(`${opLabel(ctx, 'deleteRecipient')} answered HTTP ${del.status} for the recipient just created: a refused delete judges nothing`);
    const after = await readUntilGone(ctx, read, id);
    check(!carries(after, id), `${opLabel(ctx, 'deleteRecipient')} answered HTTP ${del.status}, yet after ${DELETE_WAIT_MS / 1000} s ${opLabel(ctx, 'getRecipient')} still returns recipient ${id} (HTTP ${after.status}): the delete did not take effect`, { rules: DELETE_RULES, response: after });
    ctx.log(`after delete the recipient read answers HTTP ${after.status}`);
  },
};

export const drivers: Drivers = {
  ...sepaRecipientDrivers,
  'ENDPOINT-RECIPIENT-DELETE-EFFECT': recipientDeleteEffect,
  'FLOW-PUSH-TO-CARD': {
    title: 'Push to Card: tokenize -> Card recipient (payment_details.id) -> estimate (estimation_id) -> execute (activity_id) -> an activity webhook on {webhook:activities} mentioning the activity_id, one of them reporting the completed status the activity reads',
    safe: false,
    needs: ['pci', 'webhooks'],
    alsoCovers: ['EVENT-CARD-TRANSFER-ACTIVITY', 'ENDPOINT-RECIPIENT-AS-CREATED', 'EVENT-ACTIVITY-WEBHOOK-REPORTS'],
    async run(ctx) {
      const path = webhookPath(ctx, 'activities');
      const user = await createUser(ctx);
      const r = await pushToCardRecipient(ctx, user);
      // Before the schema: a personal_info of the wrong shape is this rule's fault, named as such.
      await expectRecipientReads(ctx, user, r);
      expectSchema(r.res, 'createRecipientV2', undefined, ['FLOW-PUSH-TO-CARD']);
      const est = await estimateTransfer(ctx, user, r);
      expect2xx(est, opLabel(ctx, 'estimateCardTransfer'));
      expectSchema(est, 'estimateCardTransfer', undefined, ['FLOW-PUSH-TO-CARD']);
      const exec = await executeTransfer(ctx, user, est.json.estimation_id);
      expect2xx(exec, `${opLabel(ctx, 'executeCardTransfer')} with the estimation_id`);
      expectSchema(exec, 'executeCardTransfer', undefined, ['FLOW-PUSH-TO-CARD']);
      const activityId = String(exec.json.activity_id);
      // The status before settling, when the activity can be read (paths not shown: profile.operations).
      const before = await activityStatus(ctx, user, activityId);
      // Settle now when the control adapter offers it (spec/control.yaml: completeActivity emits the
      // activity webhook); a target that settles on its own may refuse.
      const settled = await settleActivity(ctx, activityId);
      const timeout = webhookTimeoutMs(ctx, settled);
      const began = Date.now();
      const pre = [exec.json.status, before];
      // The activity webhook's payload is not shown: any delivery on the path that mentions the activity id anywhere.
      const waited = settled || ctx.profile.webhook_timeout_ms !== undefined
        ? { hook: await ctx.services.webhooks!.waitFor(path, (b) => mentionsDeep(b, activityId), timeout, ctx.signal) }
        : await awaitUnsettled(ctx, user, { activityId, path, pre, timeout });
      const hook = waited.hook;
      // Settling on its own schedule, with no profile wait and no completion seen on the activity read:
      // minutes are allowed (reading delivery-time), so the default wait cannot tell late from never.
      if (!hook && !settled && ctx.profile.webhook_timeout_ms === undefined && waited.completed === undefined) {
        warnReading(ctx, 'EVENT-CARD-TRANSFER-ACTIVITY', 'delivery-time', `no activity webhook mentioning activity_id ${activityId} arrived on ${path} within the default ${timeout / 1000} s, and the activity read did not show the transfer completed (the transfer was not settled by the control API; set profile.webhook_timeout_ms to wait longer)`);
        return;
      }
      if (!hook && waited.completed !== undefined) {
        throw new CheckFailure(`the activity ${activityId} reads ${JSON.stringify(waited.completed)} (completed: its status before was ${JSON.stringify(pre.filter((v) => typeof v === 'string'))}), yet no activity webhook mentioning it arrived on ${path} within ${webhookTimeoutMs(ctx, true) / 1000} s of the read showing it (section 6 rule 1: completing a card transfer results in an activity webhook; profile.webhook_timeout_ms sets the wait)`, { rules: ['EVENT-CARD-TRANSFER-ACTIVITY'] });
      }
      check(hook, `no activity webhook mentioning activity_id ${activityId} arrived on ${path} within ${timeout / 1000} s (section 6 rule 1; profile.webhook_timeout_ms sets the wait)`, { rules: ['EVENT-CARD-TRANSFER-ACTIVITY'] });
      expectWebhookSchema(ctx, 'activities', hook.body, ['EVENT-CARD-TRANSFER-ACTIVITY']);
      await expectCompletionReported(ctx, user, { activityId, path, before: [exec.json.status, before], settled, deadline: began + timeout });
      await expectActivityReported(ctx, user, path, activityId);
    },
  },
};
