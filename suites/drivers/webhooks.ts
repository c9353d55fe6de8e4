// Section 6 events: delivery (POST, JSON, section 6 paths) observed on the engine's receiver, and
// "account activation ends with the bank account webhook".

import type { CheckContext, ReceivedWebhook, RefusedDelivery } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { drivers as pathDrivers } from './webhook-paths.ts';
import { drivers as kindDrivers } from './webhook-kinds.ts';
import { expectDetailsReported } from './bank-webhook.ts';
import {
  check, completeSepaByProvider, create3ds, createUser, directSepa, expect2xx, isJsonContentTypeOf, mentionsDeep, sepaStates, setSepaStatus,
  webhookPath, webhookTimeoutMs, hasControl, provokedWebhookWaitMs, expectWebhookSchema, field
} from '../kit/index.ts';

/** Section 6 paths: the model's webhooks (x-webhook-path) plus the profile's paths for those the spec does not show. */
export function webhookPaths(ctx: CheckContext): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, item] of Object.entries(ctx.model.openapi?.webhooks ?? {})) {
    const p = item?.post?.['x-webhook-path'];
    if (typeof p === 'string') out.set(p, name);
  }
  for (const [name, p] of Object.entries(ctx.profile.webhook_paths ?? {})) out.set(p, name);
  return out;
}

export const drivers: Drivers = {
  // The user webhook path rule (EVENT-USER-WEBHOOK-PATH) lives in webhook-paths.ts.
  ...pathDrivers,
  // Debt cases, corporations, card limit, and the section 9.2 naming over every payload: webhook-kinds.ts.
  ...kindDrivers,
  'EVENT-WEBHOOK-DELIVERY': {
    title: 'Every webhook received on a section 6 path (or a path the profile gives) is a JSON POST whose body matches the webhook\'s schema in spec/openapi.yaml; deliveries elsewhere are logged',
    safe: false,
    needs: ['webhooks'],
    async run(ctx) {
      const hooks = ctx.services.webhooks!;
      // Provoke what can be provoked; the spec does not say which of these emit webhooks.
      const user = await createUser(ctx);
      const ch = hasControl(ctx, 'create3dsChallenge') ? await create3ds(ctx, user).catch(() => undefined) : undefined;
      await hooks.waitFor(webhookPath(ctx, 'user'), (b) => mentionsDeep(b, user.id), provokedWebhookWaitMs(ctx, 3000), ctx.signal);
      const paths = webhookPaths(ctx);
      // The receiver records POSTs only (any other method is answered 405 and not kept).
      const all: ReceivedWebhook[] = hooks.all();
      const unknown = [...new Set(all.filter((w) => !paths.has(w.path)).map((w) => w.path))];
      // Paths of the wallets, balances, card limit and bank account webhooks are not shown: not a failure.
      if (unknown.length > 0) ctx.log(`webhooks on paths that are not section 6 paths nor in profile.webhook_paths (not checked): ${unknown.join(', ')}`);
      let known = all.filter((w) => paths.has(w.path));
      if (ctx.profile.webhooks) {
        // An external receiver is reachable by anyone who knows its public URL: judge only deliveries
        // that carry an id this check provoked (user id or address, 3DS transaction id), never strangers'.
        const ids = [user.id, user.address, ch?.transaction_id].filter((v): v is string => typeof v === 'string' && v !== '').map((v) => v.toLowerCase());
        const ours = ({ body }: ReceivedWebhook) => (typeof body === 'string' ? ids.some((id) => body.toLowerCase().includes(id)) : ids.some((id) => mentionsDeep(body, id)));
        const mine = known.filter(ours);
        if (mine.length < known.length) ctx.log(`${known.length - mine.length} delivery(ies) on section 6 paths carry no id this check provoked; not judged (external receiver)`);
        known = mine;
      }
      if (known.length === 0) ctx.skip('no webhook arrived on a section 6 path during the run; the spec does not say when most webhooks are emitted');
      for (const w of known) {
        check(isJsonContentTypeOf(w.headers), `webhook ${w.path} has Content-Type ${JSON.stringify(w.headers['content-type'])}, expected application/json`);
        check(w.body !== undefined && typeof w.body !== 'string', `webhook ${w.path} body is not JSON: ${String(w.body ?? '(empty)').slice(0, 200)}`);
        // The body against its spec/openapi.yaml schema (most only type the fields section 6 names, so an
        // unknown event on the same path passes); a webhook without a schema is not judged.
        expectWebhookSchema(ctx, paths.get(w.path)!, w.body, ['EVENT-WEBHOOK-DELIVERY']);
      }
    },
  },

  'EVENT-WEBHOOK-POST': {
    title: 'Webhooks arrive by POST (section 6): a request on a section 6 path (or a path the profile gives) with another method fails; a new user\'s user webhook is awaited so one delivery is seen',
    safe: false,
    needs: ['webhooks'],
    async run(ctx) {
      const hooks = ctx.services.webhooks!;
      if (!hooks.refused) return ctx.skip('the webhook receiver does not record requests made with another method than POST');
      const refusedOf = hooks.refused.bind(hooks);
      const paths = webhookPaths(ctx);
      const user = await createUser(ctx);
      const ids = [user.id, user.address].map((v) => v.toLowerCase());
      // An external receiver is reachable by anyone: judge only requests carrying an id this check provoked.
      const judged = (r: RefusedDelivery) => paths.has(r.path) && (!ctx.profile.webhooks || ids.some((id) => r.text.toLowerCase().includes(id)));
      const userPath = webhookPath(ctx, 'user');
      // The POSTed user webhook, or (earlier) a request for this user with another method; both bounded by the same wait.
      const stop = new AbortController();
      const signal = AbortSignal.any([ctx.signal, stop.signal]);
      const wait = provokedWebhookWaitMs(ctx, 3000);
      const posted = hooks.waitFor(userPath, (b) => mentionsDeep(b, user.id), wait, signal);
      const other = (async () => {
        for (const end = Date.now() + wait; Date.now() < end && !signal.aborted; ) {
          if (refusedOf().some((r) => r.path === userPath && ids.some((id) => r.text.toLowerCase().includes(id)))) return;
          await new Promise((r) => setTimeout(r, 200));
        }
      })();
      await Promise.race([posted, other]);
      stop.abort();
      const bad = refusedOf().filter(judged);
      const seen = [...new Set(bad.map((r) => `${r.method} ${r.path}`))];
      check(bad.length === 0, `${bad.length} webhook delivery(ies) on section 6 paths came with another method than POST (${seen.slice(0, 5).join(', ')}): section 6 says "The service delivers webhooks by POST"`, { rules: ['EVENT-WEBHOOK-POST'] });
      const any = hooks.all().some((w) => paths.has(w.path) && (!ctx.profile.webhooks || ids.some((id) => mentionsDeep(w.body, id))));
      if (!any) ctx.skip('no webhook arrived on a section 6 path during the run; the spec does not say when most webhooks are emitted, so the delivery method was not observed');
    },
  },

  'EVENT-ACTIVATION-BANK-ACCOUNT': {
    title: 'SEPA activation (direct activation, then the provider reports the details) ends with a webhook on the bank account webhook path (profile.webhook_paths.bank_account) reporting the details of that activation (its details_id, or details tied to it)',
    safe: false,
    needs: ['control:setSepaCapabilityStatus', 'control:completeSepaActivation', 'webhooks'],
    alsoCovers: ['EVENT-BANK-ACCOUNT-DETAILS'],
    async run(ctx) {
      const path = ctx.profile.webhook_paths?.bank_account;
      // The path is not shown (section 6); guessing the webhook by its content would be inventing its payload.
      if (!path) return ctx.skip('the bank account webhook path is not shown by the spec and profile.webhook_paths.bank_account is not set');
      const hooks = ctx.services.webhooks!;
      const user = await createUser(ctx);
      await setSepaStatus(ctx, user, sepaStates(ctx).notStarted);
      const direct = await directSepa(ctx, user);
      expect2xx(direct, 'direct SEPA activation');
      await completeSepaByProvider(ctx, user);
      const timeout = webhookTimeoutMs(ctx, true);
      // Matched to this activation by the ids it carries (payload not shown: any of the SEPA details id,
      // the user id, address or email, anywhere in the body), never by arrival time: a shared or
      // external receiver also gets other users' deliveries.
      const ids = [field(direct.json, 'details_id'), user.id, user.address, user.email].filter((v): v is string => typeof v === 'string' && v !== '');
      const began = Date.now();
      const hit = await hooks.waitFor(path, (b) => ids.some((id) => mentionsDeep(b, id)), timeout, ctx.signal);
      check(hit, `no webhook mentioning this activation (${ids.join(', ')}) arrived on ${path} within ${timeout / 1000} s after the activation completed (section 6 rule 2; profile.webhook_timeout_ms sets the wait)`, { rules: ['EVENT-ACTIVATION-BANK-ACCOUNT'] });
      // It reports the details of this activation (EVENT-BANK-ACCOUNT-DETAILS), within the same wait.
      await expectDetailsReported(ctx, user, path, field(direct.json, 'details_id'), began + timeout);
    },
  },
};
