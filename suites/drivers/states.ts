// Section 3 state machines, focused checks (one rule each): SEPA activation paths and withdrawal
// requests here, 3DS decisions in states-3ds.ts. The model-based (fast-check command) tests of the same
// machines live in suites/models/sepa-model.ts and three-ds-model.ts, registered from suites/models/index.ts.

import {
  opLabel, expectSchema, type TestUser, asUser, check, completeSepa, completeSepaByProvider, createUser, createWithdrawal,
  directSepa, expect2xx, expectRefusedBy, expectNot2xx, initAndSign, initSepa, listItems, machine, mentionsDeep, NO_SIGNER, rnd,
  sepaStatus, sepaStates, setPrimaryWallet, setSepaStatus, signChallenge, unsignedChallenge, userInState, warnReading, field,
} from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { WALLET_LINK_NEEDS, walletLinkUser } from './bank.ts';
import type { RuleId } from '../../src/model/types.ts';
import { threeDsDrivers } from './states-3ds.ts';

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
  ...threeDsDrivers,
};
