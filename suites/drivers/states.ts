// Section 3 state machines, focused checks (one rule each): SEPA activation paths, 3DS decisions,
// withdrawal requests. The model-based (fast-check command) tests of the same machines live in
// suites/models/state-models.ts and are registered from suites/models/index.ts.
// Size: a little over 300 lines: one driver per section 3 rule (SEPA paths, 3DS, withdrawals) sharing
// the state helpers of suites/kit/sepa.ts.

import {
  opLabel,
  expectSchema, type TestUser, advanceClock, asUser, bearer, chainHeader, check, completeSepa, completeSepaByProvider, create3ds, createUser,
  createWithdrawal, directSepa, expect2xx, expectError, expectRefusedBy, expectNot2xx, headers, identityHeader, initAndSign, initSepa, listItems, machine,
  mentionsDeep, NO_SIGNER, rnd, unknownIdLike, s2sToken, sepaStatus, sepaStates, setPrimaryWallet, setSepaStatus, signChallenge, tamperSignature,
  unsignedChallenge, userInState, warnReading, field
} from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { WALLET_LINK_NEEDS, walletLinkUser } from './bank.ts';
import type { RuleId } from '../../src/model/types.ts';

// ------------------------------------------------------------------------------------------------ SEPA

async function expectSepa(ctx: CheckContext, user: TestUser, want: string, what: string, rules?: RuleId[]) {
  const { status, res } = await sepaStatus(ctx, user);
  check(status === want, `${what}: SepaAccount status is ${JSON.stringify(status)}, expected ${want}`, { rules, response: res });
}

function expectDetailsId(res: HttpResponse, what: string) {
  expect2xx(res, what);
  const id = field(res.json, 'details_id');
  check(id !== undefined && id !== null && id !== '', `${what}: no details_id in ${res.text.slice(0, 200)}`, { response: res });
}

const SET_STATUS = 'control:setSepaCapabilityStatus' as const;
const PROVIDER_COMPLETES = 'control:completeSepaActivation' as const;
const SIGNS = 'control:signChallenge' as const;

// ------------------------------------------------------------------------------------------------- 3DS

export const THREE_DS_NEEDS = ['control:create3dsChallenge', 'operation:approve3ds', 'operation:decline3ds'] as const;
export type Decision = 'approve3ds' | 'decline3ds';

export async function decide(ctx: CheckContext, user: TestUser, op: Decision, transactionId: string): Promise<HttpResponse> {
  return asUser(ctx, user, { op, params: { transaction_id: transactionId } });
}

/** The 3DS refusal: 400 ErrorNotFound (ERR-3DS-NOT-FOUND), never 401. */
export function expect3dsNotFound(ctx: CheckContext, res: HttpResponse, rules: RuleId[]) {
  check(res.status !== 401, `3DS ${res.status === 401 ? 'answered 401' : ''}: approve and decline never return 401`, { rules: rules.includes('STATE-3DS-NEVER-401') ? ['STATE-3DS-NEVER-401'] : rules, response: res });
  expectError(ctx, res, 'ERR-3DS-NOT-FOUND', rules);
}

function withdrawalPendingStatus(ctx: CheckContext): string {
  const status = machine(ctx, 'WithdrawalRequest').pending_status;
  if (!status) throw new Error('spec/rules/states.yaml: the WithdrawalRequest machine has no pending_status');
  return status;
}

export const drivers: Drivers = {
  'STATE-SEPA-DIRECT-ACTIVATION': {
    safe: false,
    needs: [SET_STATUS],
    async run(ctx) {
      const S = sepaStates(ctx);
      const user = await createUser(ctx);
      await setSepaStatus(ctx, user, S.notStarted);
      await expectSepa(ctx, user, S.notStarted, `after control set ${S.notStarted}`);
      const res = await directSepa(ctx, user);
      expectDetailsId(res, `${opLabel(ctx, 'createBankAccount')} {account_type: Sepa} from ${S.notStarted}`);
      expectSchema(res, 'createBankAccount');
      await expectSepa(ctx, user, S.inProgress, 'after direct activation');
    },
  },

  'STATE-SEPA-WALLET-LINK-ACTIVATION': {
    safe: false,
    needs: [...WALLET_LINK_NEEDS, SIGNS],
    async run(ctx) {
      const S = sepaStates(ctx);
      const user = await walletLinkUser(ctx);
      await expectSepa(ctx, user, S.verificationRequired, `after control set ${S.verificationRequired}`);
      const { signed } = await initAndSign(ctx, user);
      const done = await completeSepa(ctx, user, signed);
      expectDetailsId(done, `${opLabel(ctx, 'completeBankAccount')} with the signed challenge`);
      expectSchema(done, 'completeBankAccount');
      await expectSepa(ctx, user, S.inProgress, 'after init + complete');
    },
  },

  'STATE-SEPA-WEBHOOK-ACTIVE': {
    title: 'InProgress -> Active when the provider reports the SEPA details (control sepa/complete stands in for the provider)',
    safe: false,
    needs: [SET_STATUS, PROVIDER_COMPLETES],
    async run(ctx) {
      const S = sepaStates(ctx);
      const user = await createUser(ctx);
      await setSepaStatus(ctx, user, S.notStarted);
      expectDetailsId(await directSepa(ctx, user), 'direct activation');
      await expectSepa(ctx, user, S.inProgress, 'after direct activation');
      await completeSepaByProvider(ctx, user);
      await expectSepa(ctx, user, S.active, 'after the provider reported the SEPA details');
    },
  },

  'STATE-SEPA-ACTIVE-RETRIEVE': {
    safe: false,
    needs: [SET_STATUS, PROVIDER_COMPLETES],
    async run(ctx) {
      const S = sepaStates(ctx);
      const user = await createUser(ctx);
      await setSepaStatus(ctx, user, S.notStarted);
      expectDetailsId(await directSepa(ctx, user), 'direct activation');
      await completeSepaByProvider(ctx, user);
      await expectSepa(ctx, user, S.active, 'after the provider reported the SEPA details');
      // Section 3: in Active the account is "already provisioned" and the call retrieves its details.
      // Whether two retrievals answer the same details_id is a reading (same-details-id): details_id
      // names the order result (section 2), which a server may issue per call. Another id warns.
      const seen: unknown[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await directSepa(ctx, user);
        expectDetailsId(res, `${opLabel(ctx, 'createBankAccount')} {Sepa} when ${S.active} (details are retrieved)`);
        seen.push(field(res.json, 'details_id'));
        if (i > 0 && JSON.stringify(seen[i]) !== JSON.stringify(seen[0])) {
          warnReading(ctx, 'STATE-SEPA-ACTIVE-RETRIEVE', 'same-details-id', `${opLabel(ctx, 'createBankAccount')} {Sepa} when ${S.active} answered details_id ${JSON.stringify(seen[0])}, then ${JSON.stringify(seen[i])}`);
        }
        await expectSepa(ctx, user, S.active, 'after retrieving the details');
      }
    },
  },

  'STATE-SEPA-WRONG-PATH': {
    title: 'The path that does not match the status returns 400: init/complete from ActivationNotStarted, direct activation from ExternalProviderVerificationRequired; the status does not move',
    safe: false,
    needs: [...WALLET_LINK_NEEDS],
    alsoCovers: ['ERR-SEPA-WRONG-PATH'],
    async run(ctx) {
      const S = sepaStates(ctx);
      // A wrong path that is accepted, or that moves the status, breaks the state rule; a refusal other
      // than 400 breaks the error row (expectRefusedBy keeps the two apart).
      const rules: RuleId[] = ['STATE-SEPA-WRONG-PATH'];
      const refused = (res: HttpResponse, what: string) => expectRefusedBy(ctx, res, 'ERR-SEPA-WRONG-PATH', 'STATE-SEPA-WRONG-PATH', what);
      // Direct path while verification is required.
      const a = await walletLinkUser(ctx);
      refused(await directSepa(ctx, a), `direct activation while ${S.verificationRequired}`);
      await expectSepa(ctx, a, S.verificationRequired, 'after the refused direct activation', rules);
      // Wallet-linking path while activation has not started (Primary wallet present, and the challenge
      // issued and signed while the status matched, so only the path is wrong).
      const b = await createUser(ctx);
      await setPrimaryWallet(ctx, b, true);
      await setSepaStatus(ctx, b, S.verificationRequired);
      const first = await initSepa(ctx, b);
      expect2xx(first, `baseline: init while ${S.verificationRequired}`);
      const firstChallenge = field(first.json, 'challenge');
      const signed = typeof firstChallenge === 'string' ? await signChallenge(ctx, b, firstChallenge) : undefined;
      const wrongComplete = async (status: string) => {
        const res = await completeSepa(ctx, b, signed ?? unsignedChallenge());
        if (signed !== undefined) refused(res, `complete from ${status}`);
        else {
          // Without a signed challenge the signature is a second fault: any 4xx, and the status must not move.
          ctx.log(`complete from ${status} sent an unsigned challenge (${NO_SIGNER}); any 4xx accepted`);
          check(res.status >= 400 && res.status < 500, `complete from ${status}: expected a 4xx refusal, got HTTP ${res.status}`, { rules, response: res });
        }
      };
      await setSepaStatus(ctx, b, S.notStarted);
      refused(await initSepa(ctx, b), `init from ${S.notStarted}`);
      await wrongComplete(S.notStarted);
      await expectSepa(ctx, b, S.notStarted, 'after the refused wallet-linking calls', rules);
      // Registration pending: neither path matches.
      await setSepaStatus(ctx, b, S.registrationPending);
      refused(await directSepa(ctx, b), `direct activation from ${S.registrationPending}`);
      refused(await initSepa(ctx, b), `init from ${S.registrationPending}`);
      await wrongComplete(S.registrationPending);
      await expectSepa(ctx, b, S.registrationPending, 'after the refused calls', rules);
    },
  },

  'STATE-SEPA-PRIMARY-WALLET-REQUIRED': {
    title: 'Without a Primary Smart Wallet the wallet-linking path cannot finish: complete is refused and the status stays ExternalProviderVerificationRequired',
    safe: false,
    needs: [...WALLET_LINK_NEEDS, SIGNS],
    async run(ctx) {
      const S = sepaStates(ctx);
      // The challenge is issued and signed while the Primary wallet is there; then the wallet is removed,
      // so the missing wallet is the only fault of the complete.
      const user = await walletLinkUser(ctx);
      const { signed } = await initAndSign(ctx, user, 'init with a Primary Smart Wallet');
      await setPrimaryWallet(ctx, user, false);
      const done = await completeSepa(ctx, user, signed);
      expectNot2xx(done, `${opLabel(ctx, 'completeBankAccount')} for a user with no Primary Smart Wallet`);
      await expectSepa(ctx, user, S.verificationRequired, 'after the refused complete');
      // With the Primary wallet back, the same path finishes (the wallet was the only obstacle).
      await setPrimaryWallet(ctx, user, true);
      const again = await initAndSign(ctx, user, 'init with a Primary Smart Wallet');
      expect2xx(await completeSepa(ctx, user, again.signed), 'complete with a Primary Smart Wallet');
    },
  },

  'STATE-WITHDRAWAL-REQUESTED': {
    safe: false,
    needs: ['control:createWithdrawalRequest|fixture:withdrawal_pending'],
    async run(ctx) {
      const pending = withdrawalPendingStatus(ctx);
      const dest = rnd.address();
      const { user, fixture } = await userInState(ctx, 'createWithdrawalRequest', 'withdrawal_pending', async () => {
        const u = await createUser(ctx);
        await createWithdrawal(ctx, u, dest);
        return u;
      });
      const res = await asUser(ctx, user, { op: 'listWithdrawalRequests' });
      expect2xx(res, opLabel(ctx, 'listWithdrawalRequests'));
      // The schema (which also pins the status) is checked after this rule's own assertions, so a wrong
      // status fails STATE-WITHDRAWAL-REQUESTED by name rather than the schema rule first.
      const items = listItems(res.json);
      if (fixture) {
        // Read only: the list holds pending requests (section 4), so each carries the pending status.
        if (items.length === 0) ctx.skip(`profile.fixtures.withdrawal_pending user ${user.id} has no pending withdrawal request`);
        for (const w of items) check(field(w, 'status') === pending, `pending withdrawal request has status ${JSON.stringify(field(w, 'status'))}, expected ${pending}`, { response: res });
        expectSchema(res, 'listWithdrawalRequests');
        return;
      }
      // The pending request this check created: the one that mentions its destination (under either alias name).
      const mine = items.find((w) => mentionsDeep(w, dest));
      check(mine, `the pending withdrawal request to ${dest} is not listed`, { response: res });
      check(field(mine, 'status') === pending, `pending withdrawal request has status ${JSON.stringify(field(mine, 'status'))}, expected ${pending}`, { response: res });
      expectSchema(res, 'listWithdrawalRequests');
    },
  },

  'STATE-3DS-DECIDE-PENDING': {
    safe: false,
    needs: [...THREE_DS_NEEDS],
    async run(ctx) {
      const user = await createUser(ctx);
      for (const op of ['approve3ds', 'decline3ds'] as const) {
        const ch = await create3ds(ctx, user);
        const list = await asUser(ctx, user, { op: 'list3dsRequests' });
        expect2xx(list, opLabel(ctx, 'list3dsRequests'));
        const items = listItems(list.json);
        // The list item's id field is not shown (section 4): the item that carries the id the control API answered, under any name.
        check(items.some((c) => mentionsDeep(c, ch.transaction_id)), `pending challenge ${ch.transaction_id} is not listed (no item carries that id)`, { response: list });
        expect2xx(await decide(ctx, user, op, ch.transaction_id), `${op} of the user's own pending challenge`);
      }
    },
  },

  'STATE-3DS-NO-REPLAY': {
    safe: false,
    needs: [...THREE_DS_NEEDS],
    alsoCovers: ['ERR-3DS-NOT-FOUND'],
    async run(ctx) {
      const rules: RuleId[] = ['STATE-3DS-NO-REPLAY', 'ERR-3DS-NOT-FOUND'];
      const user = await createUser(ctx);
      for (const [first, second] of [['approve3ds', 'approve3ds'], ['approve3ds', 'decline3ds'], ['decline3ds', 'decline3ds'], ['decline3ds', 'approve3ds']] as const) {
        const ch = await create3ds(ctx, user);
        expect2xx(await decide(ctx, user, first, ch.transaction_id), `first decision (${first})`);
        expect3dsNotFound(ctx, await decide(ctx, user, second, ch.transaction_id), rules);
      }
      // Concurrent decisions on one challenge: exactly one wins, every other is refused.
      const RACERS = 6;
      const ch = await create3ds(ctx, user);
      const answers = await Promise.all(Array.from({ length: RACERS }, (_, i) => decide(ctx, user, i % 2 ? 'decline3ds' : 'approve3ds', ch.transaction_id)));
      const wins = answers.filter((r) => r.status >= 200 && r.status < 300);
      check(wins.length === 1, `${RACERS} concurrent decisions on one challenge: ${wins.length} succeeded, exactly one may (a decision cannot be replayed)`, { rules, response: wins[1] ?? answers[0] });
      for (const r of answers) if (!(r.status >= 200 && r.status < 300)) expect3dsNotFound(ctx, r, rules);
    },
  },

  'STATE-3DS-EXPIRY': {
    title: 'A 3DS challenge can be decided within 5 minutes of creation and not after (server clock advanced through the control API)',
    safe: false,
    exclusive: true,
    needs: [...THREE_DS_NEEDS, 'control:advanceClock'],
    alsoCovers: ['LIMIT-3DS-WINDOW'],
    async run(ctx) {
      const windowS = ctx.model.limits.three_ds_window?.value;
      if (!windowS) throw new Error('the model has no three_ds_window limit');
      // A refusal inside the window breaks only the window's length (LIMIT-3DS-WINDOW); an acceptance
      // after it breaks both the length and expiry itself (the pair stays apart in a report and in kills).
      const rules: RuleId[] = ['STATE-3DS-EXPIRY', 'LIMIT-3DS-WINDOW'];
      const user = await createUser(ctx);
      const early = await create3ds(ctx, user);
      const late1 = await create3ds(ctx, user);
      const late2 = await create3ds(ctx, user);
      await advanceClock(ctx, windowS - 20);
      expect2xx(await decide(ctx, user, 'approve3ds', early.transaction_id), `approve ${windowS - 20} s after creation (inside the ${windowS} s window)`, ['LIMIT-3DS-WINDOW']);
      await advanceClock(ctx, 21 + 5);
      expect3dsNotFound(ctx, await decide(ctx, user, 'approve3ds', late1.transaction_id), rules);
      expect3dsNotFound(ctx, await decide(ctx, user, 'decline3ds', late2.transaction_id), rules);
    },
  },

  'STATE-3DS-CALLER-SCOPED': {
    title: "Another user's challenge and an unknown transaction id give the same 400 ErrorNotFound; the owner can still decide afterwards",
    safe: false,
    needs: [...THREE_DS_NEEDS],
    async run(ctx) {
      const rules: RuleId[] = ['STATE-3DS-CALLER-SCOPED'];
      const owner = await createUser(ctx);
      const other = await createUser(ctx);
      const ch = await create3ds(ctx, owner);
      const bodies: HttpResponse[] = [];
      for (const op of ['approve3ds', 'decline3ds'] as const) {
        const res = await decide(ctx, other, op, ch.transaction_id);
        expect3dsNotFound(ctx, res, rules);
        bodies.push(res);
        const unknown = await decide(ctx, owner, op, unknownIdLike(ch.transaction_id));
        expect3dsNotFound(ctx, unknown, rules);
        bodies.push(unknown);
      }
      const sig = (r: HttpResponse) => JSON.stringify([r.status, field(r.json, 'error_reason'), field(r.json, 'error_description'), field(r.json, 'error_category')]);
      for (const r of bodies) check(sig(r) === sig(bodies[0]), `the 3DS refusals differ (lookup is scoped to the caller, so all are the same 400): ${sig(bodies[0])} vs ${sig(r)}`, { response: r });
      expect2xx(await decide(ctx, owner, 'approve3ds', ch.transaction_id), "the owner approves after the other user's refused attempts");
    },
  },

  'STATE-3DS-NEVER-401': {
    title: '3DS approve and decline never return 401 for a refused lookup (unknown, decided, another user\'s); a token with an altered signature is refused (401 only as the section 7 S2S signature row)',
    safe: false,
    needs: [...THREE_DS_NEEDS],
    async run(ctx) {
      const rules: RuleId[] = ['STATE-3DS-NEVER-401'];
      const user = await createUser(ctx);
      const other = await createUser(ctx);
      const ch = await create3ds(ctx, user);
      // "Never 401" (section 7 other rule 1) is about the lookup; a bad token is a section 7 S2S row
      // (401 "Token signature is not valid"). Both readings pass: that exact row, or a non-401 refusal.
      const bad = headers(bearer(tamperSignature(await s2sToken(ctx))), chainHeader(ctx), { [identityHeader(ctx, 'id')]: user.id });
      for (const op of ['approve3ds', 'decline3ds'] as const) {
        const res = await ctx.http.send({ op, params: { transaction_id: ch.transaction_id }, headers: bad });
        expectNot2xx(res, `${op} with an altered S2S token`, rules);
        if (res.status === 401) {
          expectError(ctx, res, 'ERR-S2S-SIGNATURE-INVALID', rules);
          warnReading(ctx, 'STATE-3DS-NEVER-401', 'bad-token-401', `${op} with an altered S2S token answered 401 ErrorPermissionDenied`);
        }
      }
      for (const op of ['approve3ds', 'decline3ds'] as const) {
        expect3dsNotFound(ctx, await decide(ctx, user, op, unknownIdLike(ch.transaction_id)), rules);
        expect3dsNotFound(ctx, await decide(ctx, other, op, ch.transaction_id), rules);
      }
      expect2xx(await decide(ctx, user, 'decline3ds', ch.transaction_id), 'the owner declines its pending challenge');
      for (const op of ['approve3ds', 'decline3ds'] as const) expect3dsNotFound(ctx, await decide(ctx, user, op, ch.transaction_id), rules);
    },
  },
};
