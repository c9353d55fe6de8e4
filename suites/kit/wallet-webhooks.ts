// Section 6 / 9.5: the wallets and balances webhooks carry wallet_address, "already the correct
// name", and stay unchanged. Their paths and when they are sent are not shown: the paths come from
// profile.webhook_paths.wallets / balances, and a webhook that never comes is logged, never failed.

import type { CheckContext } from '../../src/checks/types.ts';
import { check } from '../../src/checks/assert.ts';
import { mentionsDeep } from './http.ts';
import { provokedWebhookWaitMs } from './webhooks.ts';
import type { RuleId } from '../../src/model/types.ts';

export const WALLET_WEBHOOKS = ['wallets', 'balances'] as const;

/**
 * Every wallets / balances delivery about `user` (its id or one of its Smart Wallet addresses anywhere
 * in the body) carries wallet_address as a string. Waits at most a bounded time per path.
 */
export async function expectUnchangedWalletWebhooks(ctx: CheckContext, user: { id: string }, wallets: string[], rules: RuleId[]): Promise<void> {
  const rx = ctx.services.webhooks;
  if (!rx) {
    ctx.couldNotJudge('the wallets and balances webhook payloads carry wallet_address', 'a webhook receiver (profile.webhooks, or control setWebhookBaseUrl)');
    return;
  }
  const about = (b: unknown) => mentionsDeep(b, user.id) || wallets.some((w) => mentionsDeep(b, w));
  for (const name of WALLET_WEBHOOKS) {
    const path = ctx.profile.webhook_paths?.[name];
    if (!path) {
      ctx.couldNotJudge(`the ${name} webhook payload carries wallet_address`, `profile.webhook_paths.${name} (section 6 does not show the path)`);
      continue;
    }
    const first = await rx.waitFor(path, about, provokedWebhookWaitMs(ctx, 3000), ctx.signal);
    if (!first) {
      ctx.log(`no ${name} webhook about user ${user.id} arrived on ${path} (section 6 does not say when it is sent)`);
      continue;
    }
    for (const d of rx.all().filter((x) => x.path === path && about(x.body))) {
      const b = d.body as Record<string, unknown> | null;
      check(b !== null && typeof b === 'object' && typeof b.wallet_address === 'string', `${name} webhook on ${path} carries no wallet_address (section 6: "wallet_address (already the correct name)", section 9.5: unchanged): ${JSON.stringify(b).slice(0, 200)}`, { rules });
    }
  }
}
