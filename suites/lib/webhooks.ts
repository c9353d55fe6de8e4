// Section 6 events: delivery (POST, JSON, section 6 paths) observed on the engine's receiver, and
// "account activation ends with the bank account webhook".

import type { CheckContext, ReceivedWebhook } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { check, control, create3ds, createUser, directSepa, expect2xx, isJsonContentTypeOf, sepaStates, setSepaStatus, userPath, CheckFailure } from './fixtures.ts';

/** Section 6 paths: the model's webhooks (x-webhook-path) plus the profile's paths for those the spec does not show. */
export function webhookPaths(ctx: CheckContext): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, item] of Object.entries<any>(ctx.model.openapi?.webhooks ?? {})) {
    const p = item?.post?.['x-webhook-path'];
    if (typeof p === 'string') out.set(p, name);
  }
  for (const [name, p] of Object.entries(ctx.profile.webhook_paths ?? {})) out.set(p, name);
  return out;
}

function mentions(body: unknown, ...values: string[]): boolean {
  const text = JSON.stringify(body ?? null);
  return values.some((v) => v && text.includes(v));
}

export const drivers: Drivers = {
  'EVENT-WEBHOOK-DELIVERY': {
    title: 'Every webhook received during the run is a JSON POST to a section 6 path whose payload matches its documented shape',
    safe: false,
    needs: ['webhooks'],
    async run(ctx) {
      const hooks = ctx.services.webhooks!;
      // Provoke what can be provoked; the spec does not say which of these emit webhooks.
      const user = await createUser(ctx);
      if (ctx.profile.control_url) await create3ds(ctx, user).catch(() => undefined);
      await hooks.waitFor('/v2/webhooks/user', (b) => mentions(b, user.id), 3000);
      const all: ReceivedWebhook[] = hooks.all();
      if (all.length === 0) ctx.skip('no webhook arrived during the run; the spec does not say when most webhooks are emitted');
      const paths = webhookPaths(ctx);
      for (const w of all) {
        const name = paths.get(w.path);
        check(name, `webhook delivered to ${w.path}, which is not a section 6 path (${[...paths.keys()].join(', ')})`);
        check(isJsonContentTypeOf(w.headers), `webhook ${w.path} has Content-Type ${JSON.stringify(w.headers['content-type'])}, expected application/json`);
        check(w.body !== null && typeof w.body === 'object', `webhook ${w.path} body is not a JSON object: ${JSON.stringify(w.body)?.slice(0, 200)}`);
        const validate = ctx.model.validator(`webhook:${name}`);
        if (validate && !validate(w.body)) {
          const problems = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
          throw new CheckFailure(`webhook ${w.path} payload does not match its section 6 shape: ${problems}`);
        }
      }
    },
  },

  'EVENT-ACTIVATION-BANK-ACCOUNT': {
    title: 'SEPA activation (direct activation, then the provider reports the details) ends with the bank account webhook for that user',
    safe: false,
    needs: ['control', 'webhooks'],
    async run(ctx) {
      const hooks = ctx.services.webhooks!;
      const user = await createUser(ctx);
      await setSepaStatus(ctx, user, sepaStates(ctx).notStarted);
      const res = await directSepa(ctx, user);
      expect2xx(res, 'direct SEPA activation');
      const detailsId = res.json?.details_id !== undefined ? String(res.json.details_id) : '';
      await control(ctx, 'POST', userPath(user, '/sepa/complete'), {});
      const path = ctx.profile.webhook_paths?.bank_account;
      const known = webhookPaths(ctx);
      const match = (w: ReceivedWebhook) => mentions(w.body, user.id, detailsId) && (path ? w.path === path : !['user', 'webhook3ds', '3ds'].includes(known.get(w.path) ?? ''));
      let hit: ReceivedWebhook | undefined;
      if (path) hit = await hooks.waitFor(path, (b) => mentions(b, user.id, detailsId), 10_000);
      else {
        const end = Date.now() + 10_000;
        while (!hit && Date.now() < end) {
          hit = hooks.all().find(match);
          if (!hit) await new Promise((r) => setTimeout(r, 250));
        }
      }
      check(hit, `no bank account webhook for user ${user.id} arrived${path ? ` on ${path}` : ''} within 10 s after activation completed (section 6 rule 2)`);
    },
  },
};
