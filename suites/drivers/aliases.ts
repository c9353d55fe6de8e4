// Section 9 (and 2, 4.rule4, 6) field aliases: responses carry both names with the same value,
// requests accept the deprecated name alone or a matching pair and refuse a mismatching pair,
// webhooks (observed passively) carry both names.
// Size: over 300 lines on purpose: one driver per alias rule (17 rules) in the table the generator
// indexes by rule id, sharing the alias helpers; splitting it by section is the next step if it grows.

import fc from 'fast-check';
import { checkProperty } from '../../src/checks/property.ts';
import type { AliasRule, AliasRuleId, OperationId, RuleId } from '../../src/model/types.ts';
import type { CheckContext, HttpRequest, HttpResponse, Need } from '../../src/checks/types.ts';
import type { Driver, Drivers } from './driver.ts';
import {
  opLabel,
  type TestUser, aliasProblem, asUser, check, create3ds, createUser, createUserRaw, createWithdrawal, expect2xx, expectError,
  expectErrorShape, listItems, mentionsDeep, readUser, requestBody, rnd, runsFor, s2sHeaders, requireSmartWallets, uniqueUser, userDataArb,
  userHeaders, userIdFrom, walletItems, CheckFailure, hasControl, provokedWebhookWaitMs, userInState, expectUnchangedWalletWebhooks, triggerWebhook, webhookKindOf, field, isRecord
} from '../kit/index.ts';
import { cryptoRecipient } from './transfers.ts';

function aliasRule(ctx: CheckContext, id: AliasRuleId): AliasRule {
  const r = ctx.model.rule(id);
  if (r.kind !== 'alias') throw new Error(`${id} is not an alias rule`);
  return r;
}

function expectPair(rule: AliasRule, obj: unknown, expected: string | undefined, what: string, res?: HttpResponse): void {
  const p = aliasProblem(obj, rule.old, rule.new, expected);
  if (p) throw new CheckFailure(`${what}: ${p}`, { rules: [rule.id], response: res });
}

// ------------------------------------------------------------------------------------ response aliases

const USER_READS: Partial<Record<OperationId, (ctx: CheckContext, user: TestUser) => Promise<HttpResponse>>> = {
  getUserV1: async (ctx, user) => readUser(ctx, 'v1', await userHeaders(ctx, user)),
  getUserV2: async (ctx, user) => readUser(ctx, 'v2', await userHeaders(ctx, user)),
  validateRetailUser: async (ctx, user) => ctx.http.send({ op: 'validateRetailUser', headers: await userHeaders(ctx, user) }),
};

/** For generated users (v1 or v2 creation), every user read of the rule carries both names with the registered value. */
function userReadAlias(ruleId: AliasRuleId, expectedOf: (u: TestUser) => string): Driver {
  return {
    safe: false,
    async run(ctx) {
      const rule = aliasRule(ctx, ruleId);
      const arb = fc.tuple(userDataArb(), fc.constantFrom<'v1' | 'v2'>('v1', 'v2'));
      await checkProperty(ctx, fc.asyncProperty(arb, async ([data, version]) => {
        const user = await createUser(ctx, { ...uniqueUser(data), version });
        for (const op of rule.operations) {
          const read = USER_READS[op];
          if (!read) throw new Error(`no reader for ${op}`);
          const res = await read(ctx, user);
          expect2xx(res, op);
          expectPair(rule, res.json, expectedOf(user), op, res);
        }
      }), { numRuns: runsFor(ctx, 'user') });
    },
  };
}

// ------------------------------------------------------------------------------------- request aliases

interface RequestCase {
  req: HttpRequest;
  /** Value the new name should read back as, when the resource is readable. */
  readBack?: (res: HttpResponse) => Promise<unknown>;
  /**
   * For a mismatching pair: true when each of the two values is valid for this request on its own, so
   * the mismatch is the request's only fault (then the exact section 7 validation row applies).
   */
  singleFault: boolean;
}

interface AliasTarget {
  /**
   * Builds a request carrying `fields(value, other)` (the alias pair under test) on top of a valid body:
   * `value` is valid for the request; `other` is a second value for mismatching pairs.
   */
  build(ctx: CheckContext, fields: (value: string, other: string) => Record<string, unknown>): Promise<RequestCase>;
}

const now = () => Math.floor(Date.now() / 1000);

function userCreateTarget(version: 'v1' | 'v2'): AliasTarget {
  return {
    async build(ctx, fields) {
      const d = uniqueUser({ email: `alias${rnd.hex(3)}@example.com`, country: 'DE', address: rnd.address() });
      // Any fresh EOA is a valid user_address for a new user, so a second fresh one keeps the mismatch the only fault.
      return {
        req: { op: version === 'v1' ? 'createUserV1' : 'createUserV2', headers: await s2sHeaders(ctx), body: { email: d.email, country: d.country, ...fields(d.address, rnd.address()) } },
        singleFault: true,
        async readBack(res) {
          const id = userIdFrom(ctx, res.json);
          if (!id) return undefined;
          const read = await readUser(ctx, 'v1', await userHeaders(ctx, { id, email: d.email, address: d.address, country: d.country, client: 0 }, 'id'));
          expect2xx(read, `${opLabel(ctx, 'getUserV1')} for the user just created`);
          return field(read.json, aliasRule(ctx, version === 'v1' ? 'ALIAS-USER-CREATE-WALLET-ADDRESS-V1' : 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2').new);
        },
      };
    },
  };
}

function withoutKeys(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out = { ...o };
  for (const k of keys) delete out[k];
  return out;
}

const fxTarget: AliasTarget = {
  async build(ctx, fields) {
    const rule = aliasRule(ctx, 'ALIAS-FX-DEPOSIT-ADDRESS');
    const user = await createUser(ctx);
    const h = await userHeaders(ctx, user);
    // Any address is a destination the spec allows, so two different ones keep the mismatch the only fault.
    const base = withoutKeys(requestBody(ctx, 'estimateFx', {}), [rule.old, rule.new]);
    return {
      req: { op: 'estimateFx', headers: h, body: { ...base, ...fields(rnd.address(), rnd.address()) } },
      singleFault: true,
      readBack: async (res) => field(res.json, rule.new),
    };
  },
};

function statementTarget(which: 'user' | 'wallet'): AliasTarget {
  return {
    async build(ctx, fields) {
      const user = await createUser(ctx);
      const wallets = await requireSmartWallets(ctx, user);
      const base: Record<string, unknown> = { start: now() - 30 * 86400, end: now() + 60 };
      const owner = aliasRule(ctx, 'ALIAS-STATEMENT-OWNER');
      const account = aliasRule(ctx, 'ALIAS-STATEMENT-ACCOUNT-ADDRESS');
      const value = which === 'user' ? user.address : wallets[0];
      const other = which === 'user' ? { [account.new]: wallets[0] } : { [owner.new]: user.address };
      // A second value valid for this user: another of its Smart Wallets. The user has one EOA, so for
      // the user_address pair the second value is not the user's, and the mismatch is not the only fault.
      const second = which === 'wallet' && wallets.length >= 2 ? wallets[1] : undefined;
      return {
        req: { op: 'getFullStatement', headers: await userHeaders(ctx, user), body: { ...base, ...other, ...fields(value, second ?? rnd.address()) } },
        singleFault: second !== undefined,
        readBack: async (res) => field(res.json, which === 'user' ? owner.new : account.new),
      };
    },
  };
}

const ALIAS_TARGETS: Record<string, AliasTarget> = {
  'ALIAS-USER-CREATE-WALLET-ADDRESS-V1': userCreateTarget('v1'),
  'ALIAS-USER-CREATE-WALLET-ADDRESS-V2': userCreateTarget('v2'),
  'ALIAS-FX-DEPOSIT-ADDRESS': fxTarget,
  'ALIAS-STATEMENT-OWNER': statementTarget('user'),
  'ALIAS-STATEMENT-ACCOUNT-ADDRESS': statementTarget('wallet'),
};

const TARGET_BY_OP: Partial<Record<OperationId, AliasRuleId[]>> = {
  createUserV1: ['ALIAS-USER-CREATE-WALLET-ADDRESS-V1'],
  createUserV2: ['ALIAS-USER-CREATE-WALLET-ADDRESS-V2'],
  estimateFx: ['ALIAS-FX-DEPOSIT-ADDRESS'],
  getFullStatement: ['ALIAS-STATEMENT-OWNER', 'ALIAS-STATEMENT-ACCOUNT-ADDRESS'],
};

const sameText = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * Mismatching pair, in either direction. When both values are valid on their own the mismatch is the only
 * fault and the exact section 7 validation row applies; otherwise any 4xx with the section 7 body.
 */
async function expectMismatchRefused(ctx: CheckContext, rule: AliasRule, target: AliasTarget, oldWrong: boolean, rules: RuleId[]) {
  const c = await target.build(ctx, (v, other) => (oldWrong ? { [rule.old]: other, [rule.new]: v } : { [rule.old]: v, [rule.new]: other }));
  const res = await ctx.http.send(c.req);
  if (c.singleFault) return expectError(ctx, res, 'ERR-ALIAS-MISMATCH', rules);
  check(res.status >= 400 && res.status < 500, `${rule.operations[0]} with ${rule.old} and ${rule.new} differing: expected a 4xx refusal, got HTTP ${res.status}: ${res.text.slice(0, 200)}`, { rules, response: res });
  expectErrorShape(ctx, res, rules);
  ctx.log(`${rule.id}: no second value valid for this user, so the mismatch was not the only fault; any 4xx accepted (HTTP ${res.status})`);
}

function requestAlias(ruleId: AliasRuleId): Driver {
  return {
    safe: false,
    async run(ctx) {
      const rule = aliasRule(ctx, ruleId);
      const target = ALIAS_TARGETS[ruleId];
      // Only the deprecated name: accepted, and the value reads back under the new name where readable.
      await checkProperty(ctx, fc.asyncProperty(fc.constant(null), async () => {
        let sent = '';
        const c = await target.build(ctx, (v) => ((sent = v), { [rule.old]: v }));
        const res = await ctx.http.send(c.req);
        expect2xx(res, `${rule.operations[0]} with only the deprecated ${rule.old}`);
        const back = c.readBack ? await c.readBack(res) : undefined;
        if (back !== undefined) check(sameText(back, sent), `${rule.old} = ${sent} was sent, but ${rule.new} reads back as ${JSON.stringify(back)}`, { response: res });
      }), { numRuns: Math.min(runsFor(ctx, 'user'), 3) });
      // Matching pair: accepted.
      const both = await target.build(ctx, (v) => ({ [rule.old]: v, [rule.new]: v }));
      expect2xx(await ctx.http.send(both.req), `${rule.operations[0]} with ${rule.new} and ${rule.old} equal`);
      // Mismatching pair: validation failure (400), in either direction.
      await expectMismatchRefused(ctx, rule, target, true, [ruleId]);
      await expectMismatchRefused(ctx, rule, target, false, [ruleId]);
    },
  };
}

/** Deprecated-only user creation over generated registration data (fast-check). */
function userCreateAlias(ruleId: AliasRuleId, version: 'v1' | 'v2'): Driver {
  const base = requestAlias(ruleId);
  return {
    safe: false,
    async run(ctx) {
      const rule = aliasRule(ctx, ruleId);
      await checkProperty(ctx, fc.asyncProperty(userDataArb(), async (d0) => {
        const d = uniqueUser(d0);
        const res = await createUserRaw(ctx, version, await s2sHeaders(ctx), { email: d.email, country: d.country, [rule.old]: d.address });
        expect2xx(res, `POST /api/${version}/user with only ${rule.old}`);
        const id = userIdFrom(ctx, res.json);
        check(id, 'no user id in the answer', { response: res });
        const read = await readUser(ctx, 'v1', await userHeaders(ctx, { id, ...d, client: 0 }, 'id'));
        expect2xx(read, `${opLabel(ctx, 'getUserV1')} for the new user`);
        check(sameText(field(read.json, rule.new), d.address), `${rule.old} = ${d.address} was sent, but ${rule.new} reads back as ${JSON.stringify(field(read.json, rule.new))}`, { response: read });
      }), { numRuns: runsFor(ctx, 'user') });
      await base.run(ctx);
    },
  };
}

// ------------------------------------------------------------------------------------- webhook aliases

const WEBHOOK_WAIT_MS = 5000;
const NO_WEBHOOK = 'the spec does not say when this webhook is emitted and none arrived';

/**
 * Objects of a webhook body that the alias rule is about: those carrying the preferred name, and those
 * carrying the deprecated name at the top level or with the value expected for this webhook. Objects
 * carrying neither name (e.g. a Card recipient with no crypto details) are not about the rule.
 */
function aliasObjects(body: unknown, rule: AliasRule, expected?: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const seen = new Set<unknown>();
  const walk = (o: unknown, depth: number): void => {
    if (o === null || typeof o !== 'object' || seen.has(o)) return;
    seen.add(o);
    if (Array.isArray(o)) return o.forEach((x) => walk(x, depth + 1));
    if (!isRecord(o)) return;
    const rec = o;
    const has = (k: string) => Object.hasOwn(rec, k) && rec[k] !== undefined;
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
}

/**
 * A webhook alias check. `provoke` makes the event that emits the webhook; when it cannot (no control
 * operation or environment for it) or nothing arrives, a target with control triggerWebhook is asked to
 * emit one of that kind for a new user, and `expected` gives the value the preferred name then carries.
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
      if (provoke) {
        p = await provoke(ctx).catch((err) => {
          ctx.log(`could not provoke ${path}: ${(err as Error).message}`);
          provokeFailed = true;
          return undefined;
        });
        arrived = p !== undefined && (await hooks.waitFor(path, p.match, wait, ctx.signal)) !== undefined;
        if (p && !arrived) ctx.log(`no webhook mentioning what was created arrived on ${path} within ${wait / 1000} s`);
      }
      const kind = webhookKindOf(ctx, path);
      // Not after a failed provocation (a refused or unreachable control call): its cause is the report's, not a trigger's.
      if (!arrived && !provokeFailed && kind !== undefined && hasControl(ctx, 'triggerWebhook')) {
        const user = await createUser(ctx);
        await triggerWebhook(ctx, user, kind);
        p = { match: (b) => mentionsDeep(b, user.id) || mentionsDeep(b, user.address), expected: expected?.(user) };
        if (!(await hooks.waitFor(path, p.match, wait, ctx.signal))) ctx.log(`control triggerWebhook ${kind} for user ${user.id}: no webhook mentioning the user arrived on ${path} within ${wait / 1000} s`);
      }
      const seen = hooks.all().filter((w) => w.path === path);
      if (seen.length === 0) ctx.skip(NO_WEBHOOK);
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
  return { match: (b) => mentionsDeep(b, user.id), expected: which === 'id' ? user.id : user.address };
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
    verify: (obj) => {
      if (!wallets || !Object.hasOwn(obj, rule.new)) return undefined;
      return wallets.some((w) => sameText(obj[rule.new], w)) ? undefined
        : `${rule.new} ${JSON.stringify(obj[rule.new])} is not one of the user's Smart Wallets (${wallets.join(', ')}); section 9.4`;
    },
  };
};

// ------------------------------------------------------------------------------------------- drivers

export const drivers: Drivers = {
  'ALIAS-USER-READ-ID': userReadAlias('ALIAS-USER-READ-ID', (u) => u.id),
  'ALIAS-USER-READ-WALLET-ADDRESS': userReadAlias('ALIAS-USER-READ-WALLET-ADDRESS', (u) => u.address),

  'ALIAS-3DS-OWNER': {
    safe: false,
    needs: ['control:create3dsChallenge|fixture:three_ds_pending'],
    async run(ctx) {
      const rule = aliasRule(ctx, 'ALIAS-3DS-OWNER');
      // A fresh user with a challenge the control operation creates, or the profile's fixture user (read only).
      const { user, fixture } = await userInState(ctx, 'create3dsChallenge', 'three_ds_pending', async () => {
        const u = await createUser(ctx);
        await create3ds(ctx, u);
        return u;
      });
      const res = await asUser(ctx, user, { op: 'list3dsRequests' });
      expect2xx(res, opLabel(ctx, 'list3dsRequests'));
      const items = listItems(res.json);
      if (fixture && items.length === 0) ctx.skip(`profile.fixtures.three_ds_pending user ${user.id} has no pending 3DS challenge (it may have expired after 5 minutes)`);
      check(items.length > 0, 'a pending 3DS challenge was created but the list is empty', { response: res });
      for (const item of items) expectPair(rule, item, user.address || undefined, '3DS challenge', res);
    },
  },

  'ALIAS-WITHDRAWAL-ACCOUNT-ADDRESS': {
    safe: false,
    needs: ['control:createWithdrawalRequest|fixture:withdrawal_pending'],
    async run(ctx) {
      const rule = aliasRule(ctx, 'ALIAS-WITHDRAWAL-ACCOUNT-ADDRESS');
      const { user, fixture } = await userInState(ctx, 'createWithdrawalRequest', 'withdrawal_pending', async () => {
        const u = await createUser(ctx);
        await createWithdrawal(ctx, u, rnd.address());
        return u;
      });
      const wallets = (await requireSmartWallets(ctx, user)).map((w) => w.toLowerCase());
      const res = await asUser(ctx, user, { op: 'listWithdrawalRequests' });
      expect2xx(res, opLabel(ctx, 'listWithdrawalRequests'));
      const items = listItems(res.json);
      if (fixture && items.length === 0) ctx.skip(`profile.fixtures.withdrawal_pending user ${user.id} has no pending withdrawal request`);
      check(items.length > 0, 'a withdrawal request was created but none is listed', { response: res });
      for (const item of items) {
        expectPair(rule, item, undefined, 'withdrawal request', res);
        // Section 9.4: on withdrawal payloads wallet_address is the Smart Wallet address, not the EOA.
        check(wallets.includes(String(field(item, 'wallet_address')).toLowerCase()), `withdrawal wallet_address ${String(field(item, 'wallet_address'))} is not one of the user's Smart Wallets (${wallets.join(', ')})`, { response: res });
      }
    },
  },

  'ALIAS-WITHDRAWAL-TO-ADDRESS': {
    safe: false,
    needs: ['control:createWithdrawalRequest|fixture:withdrawal_pending'],
    async run(ctx) {
      const rule = aliasRule(ctx, 'ALIAS-WITHDRAWAL-TO-ADDRESS');
      const dest = rnd.address();
      const { user, fixture } = await userInState(ctx, 'createWithdrawalRequest', 'withdrawal_pending', async () => {
        const u = await createUser(ctx);
        await createWithdrawal(ctx, u, dest);
        return u;
      });
      const res = await asUser(ctx, user, { op: 'listWithdrawalRequests' });
      expect2xx(res, opLabel(ctx, 'listWithdrawalRequests'));
      const items = listItems(res.json);
      if (fixture) {
        // The fixture's destination is unknown here: every listed request must carry both names, equal.
        if (items.length === 0) ctx.skip(`profile.fixtures.withdrawal_pending user ${user.id} has no pending withdrawal request`);
        for (const item of items) expectPair(rule, item, undefined, 'withdrawal request', res);
        return;
      }
      const mine = items.find((i) => sameText(field(i, rule.new), dest) || sameText(field(i, rule.old), dest));
      check(mine, `no listed withdrawal request carries the destination ${dest} under ${rule.new} or ${rule.old}`, { response: res });
      expectPair(rule, mine, dest, 'withdrawal request', res);
    },
  },

  'ALIAS-RECIPIENT-ADDRESS': {
    title: 'Recipient crypto details carry recipient_address and address with the same value (a recipient created with recipient_address)',
    safe: false,
    needs: ['pci'],
    async run(ctx) {
      const rule = aliasRule(ctx, 'ALIAS-RECIPIENT-ADDRESS');
      const user = await createUser(ctx);
      const addr = rnd.address();
      const res = await cryptoRecipient(ctx, user, addr);
      if (!res) return ctx.skip('the target refused recipient_address on recipient creation; the spec does not show how crypto details are created (recipients v2 payloads not shown)');
      const found = aliasObjects(res.json, rule, addr);
      // The spec does not show how crypto details are created: a target that ignored the field is not at fault.
      if (found.length === 0) return ctx.skip(`the recipient was created with ${rule.new} = ${addr} but the answer carries neither ${rule.new} nor ${rule.old}; the spec does not show how crypto details are created`);
      for (const o of found) expectPair(rule, o, addr, 'recipient crypto details', res);
    },
  },

  'ALIAS-USER-CREATE-WALLET-ADDRESS-V1': userCreateAlias('ALIAS-USER-CREATE-WALLET-ADDRESS-V1', 'v1'),
  'ALIAS-USER-CREATE-WALLET-ADDRESS-V2': userCreateAlias('ALIAS-USER-CREATE-WALLET-ADDRESS-V2', 'v2'),
  'ALIAS-FX-DEPOSIT-ADDRESS': requestAlias('ALIAS-FX-DEPOSIT-ADDRESS'),
  'ALIAS-STATEMENT-OWNER': requestAlias('ALIAS-STATEMENT-OWNER'),
  'ALIAS-STATEMENT-ACCOUNT-ADDRESS': requestAlias('ALIAS-STATEMENT-ACCOUNT-ADDRESS'),

  'ALIAS-MISMATCH-REJECTED': {
    title: 'A new field name and its deprecated alias with different values fail validation (400, CategoryValidationFailure) on every operation that accepts both',
    safe: false,
    alsoCovers: ['ERR-ALIAS-MISMATCH'],
    async run(ctx) {
      const ops = ctx.model.rule('ALIAS-MISMATCH-REJECTED').operations;
      const cases = ops.flatMap((op) => (TARGET_BY_OP[op] ?? []).map((id) => [op, id] as const));
      for (const op of ops) if (!TARGET_BY_OP[op]) throw new Error(`suites/drivers/aliases.ts: no alias target for ${op}`);
      await checkProperty(ctx, fc.asyncProperty(fc.constantFrom(...cases), fc.boolean(), async ([, id], oldWrong) => {
        await expectMismatchRefused(ctx, aliasRule(ctx, id), ALIAS_TARGETS[id], oldWrong, ['ALIAS-MISMATCH-REJECTED', 'ERR-ALIAS-MISMATCH']);
      }), { numRuns: Math.max(cases.length * 2, runsFor(ctx, 'user')) });
    },
  },

  'ALIAS-DEPRECATED-NOT-REMOVED': {
    title: 'Deprecated names are still populated on every user read (v1, v2, validate) and still accepted on user creation',
    safe: false,
    async run(ctx) {
      const user = await createUser(ctx, { body: undefined });
      const responseRules = ctx.model.aliases.filter((r) => r.direction === 'response');
      for (const [op, read] of Object.entries(USER_READS)) {
        const res = await read(ctx, user);
        expect2xx(res, op);
        for (const r of responseRules.filter((x) => (x.operations as string[]).includes(op))) {
          const p = aliasProblem(res.json, r.old, r.new);
          if (p) throw new CheckFailure(`${op}: ${p}`, { response: res });
        }
      }
      for (const r of ctx.model.aliases.filter((x) => x.direction === 'request' && (x.operations.includes('createUserV1') || x.operations.includes('createUserV2')))) {
        const version = r.operations.includes('createUserV1') ? 'v1' : 'v2';
        const res = await createUserRaw(ctx, version, await s2sHeaders(ctx), { email: `dep${rnd.hex(6)}@example.com`, country: 'DE', [r.old]: rnd.address() });
        expect2xx(res, `POST /api/${version}/user with only the deprecated ${r.old}`);
      }
    },
  },

  'ALIAS-UNCHANGED-WALLET-NAMES': {
    safe: false,
    async run(ctx) {
      const user = await createUser(ctx);
      await requireSmartWallets(ctx, user); // provisioning time is not in the spec: poll, bounded
      const list = await asUser(ctx, user, { op: 'listWallets' });
      expect2xx(list, opLabel(ctx, 'listWallets'));
      const items = walletItems(list.json);
      check(items.length > 0, `${opLabel(ctx, 'listWallets')} lists no wallet`, { response: list });
      for (const w of items) check(typeof field(w, 'wallet_address') === 'string', `${opLabel(ctx, 'listWallets')} item without wallet_address: ${JSON.stringify(w)}`, { response: list });
      const xrpl = await asUser(ctx, user, { op: 'createXrplAccount', body: requestBody(ctx, 'createXrplAccount', {}) });
      expect2xx(xrpl, opLabel(ctx, 'createXrplAccount'));
      check(typeof field(xrpl.json, 'wallet_address') === 'string', `${opLabel(ctx, 'createXrplAccount')} answer carries no wallet_address: ${xrpl.text.slice(0, 200)}`, { response: xrpl });
      await expectUnchangedWalletWebhooks(ctx, user, items.map((w) => String(field(w, 'wallet_address'))), ['ALIAS-UNCHANGED-WALLET-NAMES']);
    },
  },

  // Triggered (control triggerWebhook) when the event cannot be provoked: the user webhook names the
  // user's id and EOA, the 3DS webhook the user's EOA (section 6); withdrawal and recipient values are the target's.
  'ALIAS-WEBHOOK-USER-ID': webhookAlias('ALIAS-WEBHOOK-USER-ID', provokeUser('id'), (u) => u.id),
  'ALIAS-WEBHOOK-USER-OWNER': webhookAlias('ALIAS-WEBHOOK-USER-OWNER', provokeUser('address'), (u) => u.address),
  'ALIAS-WEBHOOK-3DS-OWNER': webhookAlias('ALIAS-WEBHOOK-3DS-OWNER', async (ctx) => {
    if (!hasControl(ctx, 'create3dsChallenge')) return undefined;
    const user = await createUser(ctx);
    const ch = await create3ds(ctx, user);
    return { match: (b) => mentionsDeep(b, ch.transaction_id) || mentionsDeep(b, user.address), expected: user.address };
  }, (u) => u.address, ['control:create3dsChallenge|control:triggerWebhook']),
  'ALIAS-WEBHOOK-WITHDRAWAL-ACCOUNT-ADDRESS': webhookAlias('ALIAS-WEBHOOK-WITHDRAWAL-ACCOUNT-ADDRESS', provokeWithdrawal('wallet'), undefined, ['control:createWithdrawalRequest|control:triggerWebhook']),
  'ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS': webhookAlias('ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS', provokeWithdrawal('destination'), undefined, ['control:createWithdrawalRequest|control:triggerWebhook']),
  'ALIAS-WEBHOOK-RECIPIENT-ADDRESS': webhookAlias('ALIAS-WEBHOOK-RECIPIENT-ADDRESS', async (ctx) => {
    if (!ctx.profile.pci_url) return undefined;
    const addr = rnd.address();
    if (!(await cryptoRecipient(ctx, await createUser(ctx), addr))) return undefined;
    return { match: (b: unknown) => mentionsDeep(b, addr), expected: addr };
  }, undefined, ['pci|control:triggerWebhook']),
};
