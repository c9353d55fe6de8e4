// Bank accounts (section 4): account types, the numeric chain rule on init/complete (rule 1, section 7
// other rule 3), and the server-resolved Primary wallet (rule 2).

import fc from 'fast-check';
import {
  opLabel,
  expectSchema, type TestUser, NO_SIGNER, asUser, check, completeSepa, createUser, expect2xx, expectError, expectErrorShape,
  is2xx, listItems, initAndSign, initSepa, runsFor, sepaStates, signChallenge, sepaStatus, setPrimaryWallet, setSepaStatus, requireSmartWallets, hasControl, controlRaw, requestBody, warnReading, field
} from '../kit/index.ts';
import { checkProperty } from '../../src/checks/property.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import type { RuleId } from '../../src/model/types.ts';
import { unshownBankDrivers } from './bank-unshown.ts';

function accountTypes(ctx: CheckContext): string[] {
  const e = ctx.model.operations.get('createBankAccount')?.requestSchema?.properties?.account_type?.enum;
  if (!Array.isArray(e) || e.length === 0) throw new Error('spec/openapi.yaml: createBankAccount has no account_type enum');
  return e;
}

/** The account_type of section 3's direct SEPA activation. */
const SEPA_ACCOUNT_TYPE = 'Sepa';

/** A user on the wallet-linking path: SepaAccount ExternalProviderVerificationRequired with a Primary Smart Wallet. */
/** Control operations walletLinkUser uses. */
export const WALLET_LINK_NEEDS = ['control:setPrimaryWallet', 'control:setSepaCapabilityStatus'] as const;

export async function walletLinkUser(ctx: CheckContext): Promise<TestUser> {
  const user = await createUser(ctx);
  await setPrimaryWallet(ctx, user, true);
  await setSepaStatus(ctx, user, sepaStates(ctx).verificationRequired);
  return user;
}

/** Non-empty (an empty string may be read as a missing field, which is another row) and not all digits. */
const nonNumeric = () => fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !/^[0-9]+$/.test(s));

/**
 * Requests worth their cost (issue 32): the refusal and the field it names do not depend on which
 * non-numeric string is sent, so a hundred generated strings per operation bought nothing the mutant
 * bank could tell apart (sepa.chain-error.names-chain and bank.chain.numeric-string-refused are caught
 * by the first run). Strings no reading of "numeric chain ID as a string" admits come first, then a
 * fifth of the run's numRuns of generated ones: about 50 requests in all instead of 209.
 */
const CHAIN_EXAMPLES: [string][] = [['abc'], ['base-sepolia'], ['84532a'], ['0x14a34'], ['8453 2']];
const chainRuns = (ctx: CheckContext) => ({ numRuns: CHAIN_EXAMPLES.length + Math.max(1, Math.ceil(runsFor(ctx, 'cheap') / 5)), examples: CHAIN_EXAMPLES });

const sameType = (v: unknown, type: string) => typeof v === 'string' && v.toLowerCase() === type.toLowerCase();

/**
 * The account type ordered is the one reported, where it is observable (reading type-when-present):
 * account_type on the order answer, and on the account the profile's bank account list
 * (listBankAccounts, path not shown) shows with that details_id. Absent: nothing is asserted.
 */
async function expectTypeOrdered(ctx: CheckContext, user: TestUser, type: string, res: HttpResponse): Promise<void> {
  const rules: RuleId[] = ['ENDPOINT-BANK-ACCOUNT-TYPES'];
  const got = field(res.json, 'account_type');
  if (got !== undefined) check(sameType(got, type), `${opLabel(ctx, 'createBankAccount')} with account_type ${type} answered account_type ${JSON.stringify(got)}`, { rules, response: res });
  const id = field(res.json, 'details_id');
  if (!ctx.profile.operations?.listBankAccounts || id === undefined) return;
  const list = await asUser(ctx, user, { op: 'listBankAccounts' });
  if (!is2xx(list)) return ctx.log(`the bank account list (profile.operations.listBankAccounts) answered HTTP ${list.status}; account_type compared on the order answer only`);
  const item = listItems(list.json).find((a) => String(field(a, 'details_id') ?? field(a, 'id')) === String(id));
  const listedType = field(item, 'account_type');
  if (listedType !== undefined) check(sameType(listedType, type), `the bank account listed with details_id ${String(id)} has account_type ${JSON.stringify(listedType)}, ordered as ${type}`, { rules, response: list });
}

export const drivers: Drivers = {
  ...unshownBankDrivers,
  'ENDPOINT-BANK-ACCOUNT-TYPES': {
    title: '{op:createBankAccount}: Sepa from ActivationNotStarted answers { details_id } (section 3); Ach, FasterPayment and Spei answer { details_id } or a section 7 400 refusal (eligibility not shown: a warning); a type outside the list is refused with the section 7 body or accepted with a warning',
    safe: false,
    async run(ctx) {
      const S = sepaStates(ctx);
      const types = accountTypes(ctx);
      if (!types.includes(SEPA_ACCOUNT_TYPE)) throw new Error(`spec/openapi.yaml: createBankAccount account_type enum ${JSON.stringify(types)} lacks ${SEPA_ACCOUNT_TYPE}`);
      const user = await createUser(ctx);
      const refused: string[] = [];
      for (const type of types) {
        if (type === SEPA_ACCOUNT_TYPE) {
          if (hasControl(ctx, 'setSepaCapabilityStatus')) await setSepaStatus(ctx, user, S.notStarted);
          else {
            const { status } = await sepaStatus(ctx, user);
            if (status !== S.notStarted && status !== S.active) {
              ctx.log(`SepaAccount is ${status}; Sepa ordering is not exercised without the control API`);
              continue;
            }
          }
        }
        const res = await asUser(ctx, user, { op: 'createBankAccount', body: { account_type: type } });
        if (type !== SEPA_ACCOUNT_TYPE && !is2xx(res)) {
          // Whether this user may order this account type is not shown: a section 7 validation refusal is a valid answer.
          check(res.status === 400, `${opLabel(ctx, 'createBankAccount')} with account_type ${type}: expected { details_id } or a 400 refusal, got HTTP ${res.status}: ${res.text.slice(0, 200)}`, { response: res });
          expectErrorShape(ctx, res);
          refused.push(`${type} (400 ${String(field(res.json, 'error_reason'))})`);
          continue;
        }
        expect2xx(res, `${opLabel(ctx, 'createBankAccount')} with account_type ${type}`);
        expectSchema(res, 'createBankAccount', undefined, ['ENDPOINT-BANK-ACCOUNT-TYPES']);
        await expectTypeOrdered(ctx, user, type, res);
      }
      if (refused.length) warnReading(ctx, 'ENDPOINT-BANK-ACCOUNT-TYPES', 'eligibility-refusal', `${opLabel(ctx, 'createBankAccount')} refused account_type ${refused.join(', ')} for a new user`);
      // A value outside the four: section 4 lists the values, not the answer to another one (reading
      // other-type): refused with the section 7 body, or accepted with a warning.
      const bad = await asUser(ctx, user, { op: 'createBankAccount', body: { account_type: 'NotAnAccountType' } });
      if (is2xx(bad)) warnReading(ctx, 'ENDPOINT-BANK-ACCOUNT-TYPES', 'other-type', `${opLabel(ctx, 'createBankAccount')} with account_type NotAnAccountType (outside ${types.join(', ')}) answered HTTP ${bad.status}`);
      else expectErrorShape(ctx, bad);
    },
  },

  'ERR-CHAIN-NOT-NUMERIC': {
    title: 'Non-numeric chain (generated strings) on bank account init and complete: 400 validation failure naming chain_id, not chain; a numeric string succeeds',
    safe: false,
    needs: [...WALLET_LINK_NEEDS],
    alsoCovers: ['ENDPOINT-CHAIN-NUMERIC-STRING'],
    async run(ctx) {
      const user = await walletLinkUser(ctx);
      const init = await initSepa(ctx, user);
      expect2xx(init, 'baseline: init with a numeric chain string', ['ENDPOINT-CHAIN-NUMERIC-STRING']);
      // Each run sends one init a conforming target refuses without effect: independent runs.
      await checkProperty(ctx, fc.asyncProperty(nonNumeric(), async (chain) => {
        expectError(ctx, await initSepa(ctx, user, chain), 'ERR-CHAIN-NOT-NUMERIC');
      }), chainRuns(ctx), { independent: true });
      const again = await initSepa(ctx, user);
      expect2xx(again, 'init with a numeric chain string', ['ENDPOINT-CHAIN-NUMERIC-STRING']);
      const challenge = String(field(again.json, 'challenge'));
      // complete is exercised with a properly signed challenge only, so the chain is its only fault.
      const maybeSigned = await signChallenge(ctx, user, challenge);
      if (maybeSigned === undefined) return ctx.skip(`init part passed; complete not exercised: ${NO_SIGNER}`);
      const signed: string = maybeSigned;
      await checkProperty(ctx, fc.asyncProperty(nonNumeric(), async (chain) => {
        expectError(ctx, await completeSepa(ctx, user, signed, chain), 'ERR-CHAIN-NOT-NUMERIC');
      }), chainRuns(ctx), { independent: true });
      // complete with a numeric chain succeeds (a fresh challenge, in case refused attempts used the old one up): the chain was the only fault.
      const { signed: fresh } = await initAndSign(ctx, user, 'init with a numeric chain string');
      const done = await completeSepa(ctx, user, fresh);
      expect2xx(done, 'complete with a numeric chain string after the refused attempts', ['ENDPOINT-CHAIN-NUMERIC-STRING']);
    },
  },

  'ENDPOINT-PRIMARY-WALLET-SERVER': {
    title: "init with only chain: the server resolves the Primary wallet and returns it as wallet_address (one of the user's Smart Wallets, not the EOA, and the Primary the test wallet signs with, also when the user has a second wallet) with a challenge string",
    safe: false,
    needs: [...WALLET_LINK_NEEDS],
    alsoCovers: ['STATE-SEPA-INIT-RESULT'],
    async run(ctx) {
      const user = await walletLinkUser(ctx);
      // A second wallet next to the Primary (section 4: POST /api/v1/accounts creates an XRPL account), so
      // "one of the user's wallets" and "the Primary" differ. Refused: only the wallets the user has are tried.
      const extra = await asUser(ctx, user, { op: 'createXrplAccount', body: requestBody(ctx, 'createXrplAccount', {}) });
      if (!is2xx(extra)) ctx.log(`${opLabel(ctx, 'createXrplAccount')} answered HTTP ${extra.status}: init is tried without a second wallet next to the Primary`);
      const wallets = (await requireSmartWallets(ctx, user)).map((w) => w.toLowerCase());
      const res = await initSepa(ctx, user);
      expect2xx(res, `${opLabel(ctx, 'initBankAccount')} with { chain }`, ['ENDPOINT-PRIMARY-WALLET-SERVER']);
      expectSchema(res, 'initBankAccount');
      check(typeof res.json.challenge === 'string' && res.json.challenge.length > 0, 'init answered an empty challenge', { rules: ['STATE-SEPA-INIT-RESULT'], response: res });
      const wa = String(res.json.wallet_address).toLowerCase();
      check(wa !== user.address.toLowerCase(), 'init returned the EOA as wallet_address; it must be the Primary Smart Wallet', { rules: ['STATE-SEPA-INIT-RESULT', 'ENDPOINT-PRIMARY-WALLET-SERVER'], response: res });
      check(wallets.includes(wa), `init wallet_address ${res.json.wallet_address} is not one of the user's Smart Wallets (${wallets.join(', ')})`, { rules: ['STATE-SEPA-INIT-RESULT', 'ENDPOINT-PRIMARY-WALLET-SERVER'], response: res });
      // Which wallet is the Primary is not on any section 4 answer; the target's test wallet (control
      // signChallenge) signs as the Primary and names it. init's wallet_address must be that one.
      if (!hasControl(ctx, 'signChallenge')) return ctx.couldNotJudge('init wallet_address is the Primary Smart Wallet (compared with the listed wallets only)', 'control operation signChallenge');
      const signer = await controlRaw(ctx, 'signChallenge', { params: { user_id: user.id }, body: { challenge: res.json.challenge } });
      const primary = signer.json?.wallet_address;
      if (!signer.ok || typeof primary !== 'string') return ctx.log(`control signChallenge answered HTTP ${signer.status} without wallet_address: init wallet_address is not compared with the Primary`);
      check(wa === primary.toLowerCase(), `init wallet_address ${res.json.wallet_address} is not the Primary Smart Wallet ${primary} (the wallet the target's test wallet signs the challenge with; the user's wallets: ${wallets.join(', ')})`, { rules: ['STATE-SEPA-INIT-RESULT'], response: res });
    },
  },
};
