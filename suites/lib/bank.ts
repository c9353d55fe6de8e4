// Bank accounts (section 4): account types, the numeric chain rule on init/complete (rule 1, section 7
// other rule 3), and the server-resolved Primary wallet (rule 2).

import fc from 'fast-check';
import { expectSchema } from '../../src/checks/assert.ts';
import { checkProperty } from '../../src/checks/property.ts';
import type { CheckContext } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import {
  type TestUser, asUser, check, completeSepa, createUser, expect2xx, expectError, expectNot2xx, initSepa, runsFor,
  sepaStatus, setPrimaryWallet, setSepaStatus, smartWallets,
} from './fixtures.ts';

function accountTypes(ctx: CheckContext): string[] {
  const e = (ctx.model.operations.get('createBankAccount')?.requestSchema as any)?.properties?.account_type?.enum;
  if (!Array.isArray(e) || e.length === 0) throw new Error('spec/openapi.yaml: createBankAccount has no account_type enum');
  return e;
}

/** A user on the wallet-linking path: SepaAccount ExternalProviderVerificationRequired with a Primary Smart Wallet. */
export async function walletLinkUser(ctx: CheckContext): Promise<TestUser> {
  const user = await createUser(ctx);
  await setPrimaryWallet(ctx, user, true);
  await setSepaStatus(ctx, user, 'ExternalProviderVerificationRequired');
  return user;
}

const nonNumeric = () => fc.string({ maxLength: 12 }).filter((s) => !/^[0-9]+$/.test(s));

export const drivers: Drivers = {
  'ENDPOINT-BANK-ACCOUNT-TYPES': {
    title: 'POST /api/v1/bank/accounts answers { details_id } for each account_type (Sepa from ActivationNotStarted) and refuses a type outside the list',
    safe: false,
    async run(ctx) {
      const user = await createUser(ctx);
      for (const type of accountTypes(ctx)) {
        if (type === 'Sepa') {
          if (ctx.profile.control_url) await setSepaStatus(ctx, user, 'ActivationNotStarted');
          else {
            const { status } = await sepaStatus(ctx, user);
            if (status !== 'ActivationNotStarted' && status !== 'Active') {
              ctx.log(`SepaAccount is ${status}; Sepa ordering is not exercised without the control API`);
              continue;
            }
          }
        }
        const res = await asUser(ctx, user, { op: 'createBankAccount', body: { account_type: type } });
        expect2xx(res, `POST /api/v1/bank/accounts with account_type ${type}`);
        expectSchema(res, 'createBankAccount');
      }
      const bad = await asUser(ctx, user, { op: 'createBankAccount', body: { account_type: 'NotAnAccountType' } });
      expectNot2xx(bad, 'POST /api/v1/bank/accounts with an account_type outside Sepa, Ach, FasterPayment, Spei');
    },
  },

  'ERR-CHAIN-NOT-NUMERIC': {
    title: 'Non-numeric chain (generated strings) on bank account init and complete: 400 validation failure naming chain_id, not chain; a numeric string succeeds',
    safe: false,
    needs: ['control'],
    alsoCovers: ['ENDPOINT-CHAIN-NUMERIC-STRING'],
    async run(ctx) {
      const user = await walletLinkUser(ctx);
      const init = await initSepa(ctx, user);
      expect2xx(init, 'baseline: init with a numeric chain string', ['ENDPOINT-CHAIN-NUMERIC-STRING']);
      await checkProperty(ctx, fc.asyncProperty(nonNumeric(), async (chain) => {
        expectError(ctx, await initSepa(ctx, user, chain), 'ERR-CHAIN-NOT-NUMERIC');
      }), { numRuns: runsFor(ctx, 'cheap') });
      const again = await initSepa(ctx, user);
      expect2xx(again, 'init with a numeric chain string', ['ENDPOINT-CHAIN-NUMERIC-STRING']);
      const challenge = String(again.json.challenge);
      await checkProperty(ctx, fc.asyncProperty(nonNumeric(), async (chain) => {
        expectError(ctx, await completeSepa(ctx, user, challenge, chain), 'ERR-CHAIN-NOT-NUMERIC');
      }), { numRuns: runsFor(ctx, 'cheap') });
      // The same complete with a numeric chain succeeds: the chain was the only fault.
      const done = await completeSepa(ctx, user, challenge);
      expect2xx(done, 'complete with a numeric chain string after the refused attempts', ['ENDPOINT-CHAIN-NUMERIC-STRING']);
    },
  },

  'ENDPOINT-PRIMARY-WALLET-SERVER': {
    title: "init with only chain: the server resolves the Primary wallet and returns it as wallet_address (one of the user's Smart Wallets, not the EOA) with a challenge string",
    safe: false,
    needs: ['control'],
    alsoCovers: ['STATE-SEPA-INIT-RESULT'],
    async run(ctx) {
      const user = await walletLinkUser(ctx);
      const wallets = (await smartWallets(ctx, user)).map((w) => w.toLowerCase());
      const res = await initSepa(ctx, user);
      expect2xx(res, 'POST /api/v1/bank/accounts/init with { chain }');
      expectSchema(res, 'initBankAccount');
      check(typeof res.json.challenge === 'string' && res.json.challenge.length > 0, 'init answered an empty challenge', { rules: ['STATE-SEPA-INIT-RESULT'], response: res });
      const wa = String(res.json.wallet_address).toLowerCase();
      check(wa !== user.address.toLowerCase(), 'init returned the EOA as wallet_address; it must be the Primary Smart Wallet', { response: res });
      check(wallets.includes(wa), `init wallet_address ${res.json.wallet_address} is not one of the user's Smart Wallets (${wallets.join(', ')})`, { response: res });
    },
  },
};
