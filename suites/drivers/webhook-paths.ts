// Section 6: /v2/webhooks/user "replaces the legacy /webhook/users". Kept apart from webhooks.ts (the
// delivery and activation checks) so the path rule has its own small file; webhooks.ts spreads it in.
//
// The spec gives no emission rule for user webhooks, so a user webhook on neither path is a skip, not
// a failure. What fails is the legacy path used instead of the v2 one: a delivery about the user this
// check created on /webhook/users while none about that user reached /v2/webhooks/user. A copy on the
// legacy path beside the v2 delivery is accepted (section 9.3 keeps old names alive; the spec does not
// say the legacy path must stay silent).

import type { Drivers } from './driver.ts';
import { check, controlEmits, createUser, hasControl, mentionsDeep, provokedWebhookWaitMs, triggerWebhook, webhookKindOf, webhookPath } from '../kit/index.ts';

const RULE = 'EVENT-USER-WEBHOOK-PATH';

export const drivers: Drivers = {
  [RULE]: {
    title: 'A user webhook provoked by creating a user arrives on {webhook:user}, not on the legacy /webhook/users it replaces',
    safe: false,
    needs: ['webhooks'],
    async run(ctx) {
      const hooks = ctx.services.webhooks!;
      // An event rule of general.yaml: its facts name the webhook and the legacy path.
      const facts = (ctx.model.rule(RULE) as { facts?: Record<string, unknown> }).facts;
      const v2 = webhookPath(ctx, String(facts?.webhook ?? 'user'));
      const legacy = facts?.legacy_path;
      if (typeof legacy !== 'string') throw new Error(`spec/rules/general.yaml: ${RULE} has no facts.legacy_path`);
      const user = await createUser(ctx);
      // Matched by the ids this check created (payload field table not shown): never a stranger's delivery.
      const about = (b: unknown) => mentionsDeep(b, user.id) || mentionsDeep(b, user.address);
      const wait = provokedWebhookWaitMs(ctx, 3000);
      // Bounded: one wait on the v2 path; by its end any legacy delivery of the same event has had as long.
      let onV2 = await hooks.waitFor(v2, about, wait, ctx.signal);
      if (onV2) return;
      // Creating the user emitted nothing on either path (no emission rule is shown): a target with
      // control triggerWebhook is asked for the user webhook of that user, within the same bound.
      const kind = webhookKindOf(ctx, v2) ?? String(facts?.webhook ?? 'user');
      let triggered = false;
      if (hasControl(ctx, 'triggerWebhook') && controlEmits(ctx, 'triggerWebhook', kind) && !hooks.all().some((w) => w.path === legacy && about(w.body))) {
        await triggerWebhook(ctx, user, kind);
        triggered = true;
        onV2 = await hooks.waitFor(v2, about, wait, ctx.signal);
        if (onV2) return;
      }
      const onLegacy = hooks.all().find((w) => w.path === legacy && about(w.body));
      check(!onLegacy, `a user webhook about the new user ${user.id} arrived on the legacy ${legacy} and none on ${v2} within ${wait / 1000} s: section 6 says ${v2} replaces ${legacy}`, { rules: [RULE] });
      // spec/control.yaml: triggerWebhook makes the target deliver the user webhook, so it is owed.
      check(!triggered, `control triggerWebhook ${kind} succeeded (spec/control.yaml: the target then delivers one user webhook), yet no user webhook about user ${user.id} arrived on ${v2} or ${legacy} within ${wait / 1000} s (section 6; profile.webhook_timeout_ms sets the wait)`, { rules: [RULE] });
      ctx.skip(`no user webhook about user ${user.id} arrived on ${v2} or ${legacy} within ${wait / 1000} s; section 6 does not say when the user webhook is emitted, and the target profile gives no control triggerWebhook to ask for one`);
    },
  },
};
