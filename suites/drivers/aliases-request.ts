// Section 9 request aliases (and 2, 4 rule 4): a request accepts the deprecated name alone or a matching
// pair, and refuses a mismatching pair (section 7 ERR-ALIAS-MISMATCH). Joined into the aliases drivers
// (suites/drivers/aliases.ts); the generated suite is suites/generated/aliases.ts.

import fc from 'fast-check';
import { checkProperty } from '../../src/checks/property.ts';
import type { AliasRule, AliasRuleId, OperationId, RuleId } from '../../src/model/types.ts';
import type { CheckContext, HttpRequest, HttpResponse } from '../../src/checks/types.ts';
import type { Driver, Drivers } from './driver.ts';
import {
  opLabel, check, createUser, createUserRaw, expect2xx, expectError, expectErrorShape, field, readUser, requestBody,
  requireSmartWallets, rnd, runsFor, s2sHeaders, uniqueUser, userDataArb, userHeaders, userIdFrom,
} from '../kit/index.ts';
import { aliasRule, sameText } from './aliases-pair.ts';

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
      // Each run builds its own request (a fresh user where one is needed): independent runs.
      await checkProperty(ctx, fc.asyncProperty(fc.constant(null), async () => {
        let sent = '';
        const c = await target.build(ctx, (v) => ((sent = v), { [rule.old]: v }));
        const res = await ctx.http.send(c.req);
        expect2xx(res, `${rule.operations[0]} with only the deprecated ${rule.old}`);
        const back = c.readBack ? await c.readBack(res) : undefined;
        if (back !== undefined) check(sameText(back, sent), `${rule.old} = ${sent} was sent, but ${rule.new} reads back as ${JSON.stringify(back)}`, { response: res });
      }), { numRuns: Math.min(runsFor(ctx, 'user'), 3) }, { independent: true });
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
      // Each run creates and reads its own user: independent runs.
      await checkProperty(ctx, fc.asyncProperty(userDataArb(), async (d0) => {
        const d = uniqueUser(d0);
        const res = await createUserRaw(ctx, version, await s2sHeaders(ctx), { email: d.email, country: d.country, [rule.old]: d.address });
        expect2xx(res, `POST /api/${version}/user with only ${rule.old}`);
        const id = userIdFrom(ctx, res.json);
        check(id, 'no user id in the answer', { response: res });
        const read = await readUser(ctx, 'v1', await userHeaders(ctx, { id, ...d, client: 0 }, 'id'));
        expect2xx(read, `${opLabel(ctx, 'getUserV1')} for the new user`);
        check(sameText(field(read.json, rule.new), d.address), `${rule.old} = ${d.address} was sent, but ${rule.new} reads back as ${JSON.stringify(field(read.json, rule.new))}`, { response: read });
      }), { numRuns: runsFor(ctx, 'user') }, { independent: true });
      await base.run(ctx);
    },
  };
}

export const requestDrivers: Drivers = {
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
      for (const op of ops) if (!TARGET_BY_OP[op]) throw new Error(`suites/drivers/aliases-request.ts: no alias target for ${op}`);
      // Each run builds its own request (a fresh user where one is needed): independent runs.
      await checkProperty(ctx, fc.asyncProperty(fc.constantFrom(...cases), fc.boolean(), async ([, id], oldWrong) => {
        await expectMismatchRefused(ctx, aliasRule(ctx, id), ALIAS_TARGETS[id], oldWrong, ['ALIAS-MISMATCH-REJECTED', 'ERR-ALIAS-MISMATCH']);
      }), { numRuns: Math.max(cases.length * 2, runsFor(ctx, 'user')) }, { independent: true });
    },
  },
};
