// Section 6 webhooks no Partner API event is documented to emit (debt cases, corporations, card limit)
// and the section 9.2 naming convention over every webhook payload of the run. Control triggerWebhook
// (spec/control.yaml x-emits-webhooks: the kind its path names) asks the target for each; once it has
// answered, the webhook is owed and none arriving fails. A target whose profile gives no trigger for a
// kind skips, naming it. webhooks.ts spreads these drivers in.

import type { CheckContext, ReceivedWebhook } from '../../src/checks/types.ts';
import type { RuleId } from '../../src/model/types.ts';
import type { Driver, Drivers } from './driver.ts';
import {
  check, controlEmits, createUser, hasControl, mentionsDeep, provokedWebhookWaitMs, triggerWebhookIfEmittable, warnReading,
  webhookPath, type TestUser,
} from '../kit/index.ts';
import { namingFindings, ownerKeys } from './webhook-payloads.ts';

const POLL_MS = 100;

/** The section 6 webhook a rule of general.yaml is about (its facts.webhook). */
function webhookOf(ctx: CheckContext, rule: RuleId): string {
  const w = (ctx.model.rule(rule) as { facts?: Record<string, unknown> }).facts?.webhook;
  if (typeof w !== 'string') throw new Error(`spec/rules/general.yaml: ${rule} has no facts.webhook`);
  return w;
}

/**
 * The first delivery on `path` received at or after `since`, preferring one that mentions the user
 * (payloads not shown: a delivery need not name the user). Polled, bounded by `timeoutMs`.
 */
async function deliveryAfter(ctx: CheckContext, path: string, since: number, user: TestUser, timeoutMs: number): Promise<ReceivedWebhook | undefined> {
  const hooks = ctx.services.webhooks!;
  const about = (w: ReceivedWebhook) => [user.id, user.address, user.email].some((id) => mentionsDeep(w.body, id));
  const end = Date.now() + timeoutMs;
  for (let i = 0; i <= Math.ceil(timeoutMs / POLL_MS); i++) {
    const after = hooks.all().filter((w) => w.path === path && w.receivedAt >= since);
    const mine = after.find(about);
    if (mine) return mine;
    // Give a delivery about the user a moment longer than any other, then take what came.
    if (after.length > 0 && (Date.now() >= end || i >= 10)) return after[0];
    if (Date.now() >= end || ctx.signal.aborted) return after[0];
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  return undefined;
}

/** Paths other than `path` a delivery about the user reached since `since` (a hand-typed route, a legacy path). */
function elsewhere(ctx: CheckContext, path: string, since: number, user: TestUser): string[] {
  return [...new Set(ctx.services.webhooks!.all()
    .filter((w) => w.path !== path && w.receivedAt >= since && [user.id, user.address].some((id) => mentionsDeep(w.body, id)))
    .map((w) => w.path))];
}

/** Asks for a webhook of `kind` about a new user; the delivery, or undefined when the target cannot be asked. */
async function trigger(ctx: CheckContext, rule: RuleId, kind: string, path: string): Promise<ReceivedWebhook | undefined> {
  if (!controlEmits(ctx, 'triggerWebhook', kind)) throw new Error(`spec/control.yaml: triggerWebhook does not list kind ${kind} in x-emits-webhooks`);
  const user = await createUser(ctx);
  const since = Date.now();
  if (!(await triggerWebhookIfEmittable(ctx, user, kind))) return undefined;
  const wait = provokedWebhookWaitMs(ctx, 5000);
  const hit = await deliveryAfter(ctx, path, since, user, wait);
  const other = hit ? [] : elsewhere(ctx, path, since, user);
  check(hit !== undefined, `control triggerWebhook ${kind} succeeded (spec/control.yaml: the target then delivers one ${kind} webhook), yet none arrived on ${path} within ${wait / 1000} s${other.length ? `; deliveries about the user arrived on ${other.join(', ')} instead` : ''} (section 6; profile.webhook_timeout_ms sets the wait)`, { rules: [rule] });
  return hit;
}

/** A section 6 webhook with a path and no emitting event: the triggered delivery arrives on that path. */
function deliveredOnPath(rule: RuleId): Driver {
  return {
    title: `After control triggerWebhook for a new user, a JSON delivery arrives on the section 6 path of the webhook ${rule === 'EVENT-DEBT-CASES-WEBHOOK-PATH' ? '{webhook:debt-cases}' : '{webhook:corporations}'} (no Partner API event is documented to emit it)`,
    safe: false,
    needs: ['webhooks', 'control:triggerWebhook'],
    async run(ctx) {
      const kind = webhookOf(ctx, rule);
      const path = webhookPath(ctx, kind);
      const hit = await trigger(ctx, rule, kind, path);
      if (!hit) return ctx.skip(`the target's control cannot emit the ${kind} webhook (control triggerWebhook ${kind} was refused with a 4xx), and no Partner API event is documented to emit it`);
      check(hit.body !== undefined && typeof hit.body !== 'string', `the ${kind} webhook on ${path} is not JSON: ${String(hit.body ?? '(empty)').slice(0, 200)}`, { rules: [rule] });
    },
  };
}

const CARD_LIMIT: RuleId = 'EVENT-CARD-LIMIT-NO-OWNER';
const NAMING: RuleId = 'VERSION-FIELD-NAMING';

export const drivers: Drivers = {
  'EVENT-DEBT-CASES-WEBHOOK-PATH': deliveredOnPath('EVENT-DEBT-CASES-WEBHOOK-PATH'),
  'EVENT-CORPORATIONS-WEBHOOK-PATH': deliveredOnPath('EVENT-CORPORATIONS-WEBHOOK-PATH'),

  [CARD_LIMIT]: {
    title: 'The card limit webhook (profile.webhook_paths.card_limit) carries no owner field: the one control triggerWebhook card_limit asks for arrives, and no delivery on that path has a top-level owner (a nested owner warns, reading owner-depth)',
    safe: false,
    needs: ['webhooks'],
    async run(ctx) {
      const kind = webhookOf(ctx, CARD_LIMIT);
      const path = ctx.profile.webhook_paths?.[kind];
      if (!path) return ctx.skip(`the card limit webhook path is not shown by the spec and profile.webhook_paths.${kind} is not set`);
      if (hasControl(ctx, 'triggerWebhook')) await trigger(ctx, CARD_LIMIT, kind, path);
      const seen = ctx.services.webhooks!.all().filter((w) => w.path === path);
      if (seen.length === 0) return ctx.skip(`no card limit webhook arrived on ${path}: a card limit change has no path in the spec, and the target profile gives no control triggerWebhook ${kind} to ask for one`);
      for (const w of seen) {
        const { top, nested } = ownerKeys(w.body);
        check(!top, `the card limit webhook on ${path} carries an owner field (section 6: "carries no owner field"): ${JSON.stringify(w.body).slice(0, 300)}`, { rules: [CARD_LIMIT] });
        if (nested.length) warnReading(ctx, CARD_LIMIT, 'owner-depth', `a card limit webhook on ${path} carries owner nested at ${nested.slice(0, 3).join(', ')}`);
      }
    },
  },

  [NAMING]: {
    title: 'Every webhook payload received by the time this check ends (one of each kind control triggerWebhook can emit included) spells the section 9.2 names as written (no userAddress, UserId, user-id) and gives them string values, user_id a UUID',
    safe: false,
    needs: ['webhooks'],
    async run(ctx) {
      const hooks = ctx.services.webhooks!;
      const user = await createUser(ctx);
      // One of each kind the target can be asked for, so every webhook's naming is seen at least once.
      if (hasControl(ctx, 'triggerWebhook')) {
        const kinds = ctx.model.webhooks.map((w) => w.id).filter((k) => controlEmits(ctx, 'triggerWebhook', k));
        for (const kind of kinds) await triggerWebhookIfEmittable(ctx, user, kind);
      }
      await hooks.waitFor(webhookPath(ctx, 'user'), (b) => mentionsDeep(b, user.id), provokedWebhookWaitMs(ctx, 3000), ctx.signal);
      // Let the triggered deliveries land (bounded; each is asynchronous).
      await new Promise((r) => setTimeout(r, Math.min(1000, provokedWebhookWaitMs(ctx, 1000))));
      const facts = (ctx.model.rule(NAMING) as { facts?: { names?: unknown; uuid?: unknown } }).facts;
      const all = hooks.all();
      if (all.length === 0) return ctx.skip('no webhook arrived during the run: the spec does not say when most webhooks are emitted, and the target profile gives no control triggerWebhook to ask for them');
      let judged = 0;
      for (const w of all) {
        if (w.body === undefined || typeof w.body === 'string') continue;
        judged++;
        const { problems, twins } = namingFindings(w.body, facts);
        check(problems.length === 0, `webhook ${w.path}: ${problems.slice(0, 3).join('; ')} (section 9.2 field naming convention): ${JSON.stringify(w.body).slice(0, 300)}`, { rules: [NAMING] });
        if (twins.length) warnReading(ctx, NAMING, 'convention-spelling', `webhook ${w.path}: ${twins.slice(0, 3).join('; ')}`);
      }
      if (judged === 0) ctx.skip(`${all.length} webhook(s) arrived, none with a JSON body to judge`);
      ctx.log(`${judged} webhook payload(s) judged`);
    },
  },
};
