// Section 9 (and 2, 4.rule4, 6) field aliases: responses carry both names with the same value,
// requests accept the deprecated name alone or a matching pair and refuse a mismatching pair
// (aliases-request.ts), webhooks (observed passively) carry both names (aliases-webhook.ts).

import fc from 'fast-check';
import { checkProperty } from '../../src/checks/property.ts';
import type { AliasRuleId, OperationId } from '../../src/model/types.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Driver, Drivers } from './driver.ts';
import {
  opLabel, type TestUser, aliasProblem, asUser, check, create3ds, createUser, createUserRaw, createWithdrawal, expect2xx,
  listItems, readUser, requestBody, rnd, runsFor, s2sHeaders, requireSmartWallets, uniqueUser, userDataArb, userHeaders,
  walletItems, CheckFailure, userInState, expectUnchangedWalletWebhooks, field,
} from '../kit/index.ts';
import { cryptoRecipient } from './transfers.ts';
import { aliasRule, expectPair, sameText } from './aliases-pair.ts';
import { requestDrivers } from './aliases-request.ts';
import { aliasObjects, webhookDrivers } from './aliases-webhook.ts';

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
      // Each run creates and reads its own user: independent runs.
      await checkProperty(ctx, fc.asyncProperty(arb, async ([data, version]) => {
        const user = await createUser(ctx, { ...uniqueUser(data), version });
        for (const op of rule.operations) {
          const read = USER_READS[op];
          if (!read) throw new Error(`no reader for ${op}`);
          const res = await read(ctx, user);
          expect2xx(res, op);
          expectPair(rule, res.json, expectedOf(user), op, res);
        }
      }), { numRuns: runsFor(ctx, 'user') }, { independent: true });
    },
  };
}

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

  ...requestDrivers,

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

  ...webhookDrivers,
};
