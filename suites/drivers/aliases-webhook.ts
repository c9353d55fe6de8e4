// Section 6 and 9 webhook aliases, observed passively: a webhook the check provokes (or the control API
// triggers) carries both names with the same value. Joined into the aliases drivers
// (suites/drivers/aliases.ts); the generated suite is suites/generated/aliases.ts.

import type { AliasRule, AliasRuleId, ControlOperationId } from '../../src/model/types.ts';
import { isPrerequisiteFailed } from '../../src/checks/prerequisite.ts';
import type { CheckContext, Need } from '../../src/checks/types.ts';
import type { Driver, Drivers } from './driver.ts';
import {
  opLabel, aliasProblem, create3ds, createUser, createWithdrawal, mentionsDeep, rnd, requireSmartWallets, CheckFailure,
  hasControl, provokedWebhookWaitMs, triggerWebhook, webhookKindOf, isRecord, controlEmits, controlsEmitting, type TestUser,
} from '../kit/index.ts';
import { SkipSignal } from '../../src/checks/signals.ts';
import { cryptoRecipient } from './transfers.ts';
import { aliasRule, sameText } from './aliases-pair.ts';

const WEBHOOK_WAIT_MS = 5000;
const NO_WEBHOOK = 'the spec does not say when this webhook is emitted and none arrived';

/**
 * Objects of a webhook body that the alias rule is about: those carrying the preferred name, and those
 * carrying the deprecated name at the top level or with the value expected for this webhook. Objects
 * carrying neither name (e.g. a Card recipient with no crypto details) are not about the rule.
 */
export function aliasObjects(body: unknown, rule: AliasRule, expected?: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<unknown>();
  const walk = (o: unknown, depth: number): void => {
    if (o === null || typeof o !== 'object' || seen.has(o)) return;
    seen.add(o);
    if (Array.isArray(o)) return o.forEach((x) => walk(x, depth + 1));
    if (!isRecord(o)) return;
    const rec = o;
    // A name that is null carries no value (ENDPOINT-RESPONSE-SCHEMA reading null-when-optional): an object
    // with both names null, where the value does not apply (a Card entry), carries no alias pair.
    const has = (k: string) => Object.hasOwn(rec, k) && rec[k] !== undefined && rec[k] !== null;
    if (has(rule.new) || (has(rule.old) && (depth === 0 || (expected !== undefined && sameText(rec[rule.old], expected))))) out.push(rec);
    for (const v of Object.values(rec)) walk(v, depth + 1);
  };
  walk(body, 0);
  return out;
}

interface Provoked {
  /** True for the webhook this check provoked (the body mentions what was created). */
  match: (b: unknown) => boolean;
  /** Value the preferred name should carry in the provoked webhook. */
  expected?: string;
  /** Further problem with an object of the provoked webhook (e.g. section 9.4 wallet_address). */
  verify?: (obj: Record<string, unknown>) => string | undefined;
  /**
   * The control operation made, when spec/control.yaml documents it as emitting this webhook
   * (x-emits-webhooks): the webhook is then owed, and none arriving fails the rule.
   */
  emittedBy?: ControlOperationId;
  /** What `match` looks for, for the failure message. */
  about: string;
}

/** The user's Smart Wallets when the list is readable (a withdrawal or recipient payload may name the user only by them). */
async function walletsOf(ctx: CheckContext, user: TestUser): Promise<string[]> {
  return requireSmartWallets(ctx, user).catch((err: unknown) => {
    if (!isPrerequisiteFailed(err) && !(err instanceof SkipSignal)) throw err;
    return [];
  });
}

/**
 * Asks the target for a webhook of `kind` about a new user (control triggerWebhook: spec/control.yaml
 * says it emits the kind its path names, so the webhook is owed). Matched by the user's id, EOA or
 * one of its Smart Wallets (section 6 shows no user field on the withdrawal and recipient payloads).
 */
async function triggered(ctx: CheckContext, kind: string, expected?: (u: TestUser) => string | undefined): Promise<Provoked> {
  const user = await createUser(ctx);
  const wallets = kind === 'user' || kind === '3ds' ? [] : await walletsOf(ctx, user);
  await triggerWebhook(ctx, user, kind);
  const ids = [user.id, user.address, ...wallets];
  return { match: (b) => ids.some((id) => mentionsDeep(b, id)), expected: expected?.(user), emittedBy: 'triggerWebhook', about: `user ${user.id} (its id, EOA${wallets.length ? ' or Smart Wallets' : ''})` };
}

/**
 * A webhook alias check. `provoke` makes the event that emits the webhook; when it cannot (no control
 * operation or environment for it) or nothing arrives, a target with control triggerWebhook is asked to
 * emit one of that kind for a new user, and `expected` gives the value the preferred name then carries.
 * After a control call spec/control.yaml says emits the webhook (x-emits-webhooks), the webhook is
 * required: none mentioning what was made is a failure of the rule, never a skip. Only a target whose
 * profile gives no such control (and whose events emitted nothing) skips, saying so.
 */
function webhookAlias(ruleId: AliasRuleId, provoke?: (ctx: CheckContext) => Promise<Provoked | undefined>, expected?: (u: TestUser) => string | undefined, extraNeeds: Need[] = []): Driver {
  return {
    safe: false,
    needs: ['webhooks', ...extraNeeds],
    async run(ctx) {
      const rule = aliasRule(ctx, ruleId);
      const hooks = ctx.services.webhooks!;
      if (!rule.webhook) throw new Error(`spec/rules/aliases.yaml: ${ruleId} has no webhook path`);
      const path = rule.webhook;
      const wait = provokedWebhookWaitMs(ctx, WEBHOOK_WAIT_MS);
      let p: Provoked | undefined;
      let arrived = false;
      let provokeFailed = false;
      let provokeError: unknown;
      if (provoke) {
        p = await provoke(ctx).catch((err: unknown) => {
          ctx.log(`could not provoke ${path}: ${(err as Error).message}`);
          provokeFailed = true;
          provokeError = err;
          return undefined;
        });
        arrived = p !== undefined && (await hooks.waitFor(path, p.match, wait, ctx.signal)) !== undefined;
        if (p && !arrived) ctx.log(`no webhook mentioning ${p.about} arrived on ${path} within ${wait / 1000} s`);
      }
      const kind = webhookKindOf(ctx, path);
      // Not after a failed provocation (a refused or unreachable control call): its cause is the report's, not a trigger's.
      if (!arrived && !provokeFailed && kind !== undefined && hasControl(ctx, 'triggerWebhook') && controlEmits(ctx, 'triggerWebhook', kind)) {
        // A provoking call spec/control.yaml documents as emitting the webhook made it owed (judged just
        // below); a call that is not documented to emit it (a new user, a crypto recipient) leaves the trigger.
        if (!p?.emittedBy) {
          p = await triggered(ctx, kind, expected);
          arrived = (await hooks.waitFor(path, p.match, wait, ctx.signal)) !== undefined;
        }
      }
      if (!arrived && p?.emittedBy) {
        throw new CheckFailure(`control ${p.emittedBy} succeeded, and spec/control.yaml says it makes the target deliver the ${kind ?? path} webhook, yet no webhook mentioning ${p.about} arrived on ${path} within ${wait / 1000} s: section 6 says that webhook carries ${rule.new} (deprecated alias ${rule.old}); profile.webhook_timeout_ms sets the wait`, { rules: [rule.id] });
      }
      const seen = hooks.all().filter((w) => w.path === path);
      // Nothing arrived because the event could not be made (a setup step failed): that step is the cause, not the spec's silence.
      if (seen.length === 0 && isPrerequisiteFailed(provokeError)) throw provokeError;
      if (seen.length === 0) {
        const controls = kind ? controlsEmitting(ctx, kind).map((c) => `control ${c}`).join(' or ') : '';
        ctx.skip(provokeFailed ? `could not provoke ${path} (${(provokeError as Error)?.message ?? String(provokeError)}), and none arrived`
          : `${NO_WEBHOOK}; the target profile gives no control operation emitting it${controls ? ` (spec/control.yaml: ${controls})` : ''}`);
      }
      let compared = 0;
      for (const w of seen) {
        const mine = p !== undefined && p.match(w.body);
        const expected = mine ? p!.expected : undefined;
        const objects = aliasObjects(w.body, rule, expected);
        // The webhook this check provoked (it mentions what the check created) is a section 6 payload
        // that carries the field: carrying neither name is a failure, not "nothing to compare".
        if (mine && objects.length === 0) {
          throw new CheckFailure(`webhook ${path} provoked by this check carries neither ${rule.new} nor its deprecated alias ${rule.old} (section 6): ${JSON.stringify(w.body).slice(0, 300)}`, { rules: [rule.id] });
        }
        for (const obj of objects) {
          compared++;
          const problem = aliasProblem(obj, rule.old, rule.new, expected) ?? (mine ? p!.verify?.(obj) : undefined);
          if (problem) throw new CheckFailure(`webhook ${path}: ${problem}: ${JSON.stringify(w.body).slice(0, 300)}`, { rules: [rule.id] });
        }
      }
      if (compared === 0) ctx.skip(`${seen.length} webhook(s) arrived on ${path}, none carrying ${rule.new} or ${rule.old}; nothing to compare`);
    },
  };
}

/** Creates a user and waits for its user webhook; the expected value is the user's id or EOA. */
const provokeUser = (which: 'id' | 'address') => async (ctx: CheckContext): Promise<Provoked> => {
  const user = await createUser(ctx);
  return { match: (b) => mentionsDeep(b, user.id), expected: which === 'id' ? user.id : user.address, about: `the new user ${user.id}` };
};

/** Creates a pending withdrawal request to a fresh destination (control API). */
const provokeWithdrawal = (which: 'wallet' | 'destination') => async (ctx: CheckContext): Promise<Provoked | undefined> => {
  if (!hasControl(ctx, 'createWithdrawalRequest')) return undefined;
  const user = await createUser(ctx);
  // Section 9.4: on withdrawal payloads wallet_address is a Smart Wallet of the user (checked when the list is readable).
  const wallets = which === 'wallet' ? await requireSmartWallets(ctx, user).catch(() => undefined) : undefined;
  if (which === 'wallet' && !wallets) ctx.log(`${opLabel(ctx, 'listWallets')} is not readable; the withdrawal wallet_address is not compared with the Smart Wallets`);
  const dest = rnd.address();
  await createWithdrawal(ctx, user, dest);
  const rule = aliasRule(ctx, which === 'wallet' ? 'ALIAS-WEBHOOK-WITHDRAWAL-ACCOUNT-ADDRESS' : 'ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS');
  return {
    match: (b) => mentionsDeep(b, dest),
    expected: which === 'destination' ? dest : undefined,
    ...(controlEmits(ctx, 'createWithdrawalRequest', 'erc-withdrawals') ? { emittedBy: 'createWithdrawalRequest' as const } : {}),
    about: `the new request's destination ${dest}`,
    verify: (obj) => {
      if (!wallets || !Object.hasOwn(obj, rule.new)) return undefined;
      return wallets.some((w) => sameText(obj[rule.new], w)) ? undefined
        : `${rule.new} ${JSON.stringify(obj[rule.new])} is not one of the user's Smart Wallets (${wallets.join(', ')}); section 9.4`;
    },
  };
};

export const webhookDrivers: Drivers = {
  // Triggered (control triggerWebhook) when the event cannot be provoked: the user webhook names the
  // user's id and EOA, the 3DS webhook the user's EOA (section 6); withdrawal and recipient values are the target's.
  'ALIAS-WEBHOOK-USER-ID': webhookAlias('ALIAS-WEBHOOK-USER-ID', provokeUser('id'), (u) => u.id),
  'ALIAS-WEBHOOK-USER-OWNER': webhookAlias('ALIAS-WEBHOOK-USER-OWNER', provokeUser('address'), (u) => u.address),
  'ALIAS-WEBHOOK-3DS-OWNER': webhookAlias('ALIAS-WEBHOOK-3DS-OWNER', async (ctx) => {
    if (!hasControl(ctx, 'create3dsChallenge')) return undefined;
    const user = await createUser(ctx);
    const ch = await create3ds(ctx, user);
    return {
      match: (b) => mentionsDeep(b, ch.transaction_id) || mentionsDeep(b, user.address), expected: user.address,
      ...(controlEmits(ctx, 'create3dsChallenge', '3ds') ? { emittedBy: 'create3dsChallenge' as const } : {}),
      about: `the new challenge ${ch.transaction_id} or the user's EOA ${user.address}`,
    };
  }, (u) => u.address, ['control:create3dsChallenge|control:triggerWebhook']),
  'ALIAS-WEBHOOK-WITHDRAWAL-ACCOUNT-ADDRESS': webhookAlias('ALIAS-WEBHOOK-WITHDRAWAL-ACCOUNT-ADDRESS', provokeWithdrawal('wallet'), undefined, ['control:createWithdrawalRequest|control:triggerWebhook']),
  'ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS': webhookAlias('ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS', provokeWithdrawal('destination'), undefined, ['control:createWithdrawalRequest|control:triggerWebhook']),
  'ALIAS-WEBHOOK-RECIPIENT-ADDRESS': webhookAlias('ALIAS-WEBHOOK-RECIPIENT-ADDRESS', async (ctx) => {
    if (!ctx.profile.pci_url) return undefined;
    const addr = rnd.address();
    if (!(await cryptoRecipient(ctx, await createUser(ctx), addr))) return undefined;
    return { match: (b: unknown) => mentionsDeep(b, addr), expected: addr, about: `the new recipient address ${addr}` };
  }, undefined, ['pci|control:triggerWebhook']),
};
