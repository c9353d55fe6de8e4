// Bank operations whose paths the spec does not show (section 4 "Bank: list accounts ({ data:
// [BankAccount] }), ... corridor estimate and execute (...; estimate returns estimation_id and fee)"),
// with paths from profile.operations; and the Primary role as wallet reads show it (section 2).
// Joined into the bank drivers (suites/drivers/bank.ts).

import {
  asUser, check, checkStep, createUser, expect2xx, expectSchema, expectStep, field, hasControl, initSepa, is2xx, listItems, opLabel,
  requestBody, sepaStates, setPrimaryWallet, setSepaStatus, walletItems, directSepa, type TestUser,
} from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { RuleId } from '../../src/model/types.ts';
import type { Drivers } from './driver.ts';
import { createSepaRecipient } from './recipients-sepa.ts';

const LIST: RuleId[] = ['ENDPOINT-BANK-ACCOUNT-LIST'];
const CORRIDOR: RuleId[] = ['ENDPOINT-CORRIDOR-ESTIMATE'];
const ROLE: RuleId[] = ['ENDPOINT-WALLET-PRIMARY-ROLE'];

const filled = (v: unknown) => v !== undefined && v !== null && v !== '';

/** One bank account ordered for `user`: Sepa from ActivationNotStarted (control), else the first type it may order (eligibility is not shown). */
async function orderAccount(ctx: CheckContext, user: TestUser): Promise<HttpResponse | undefined> {
  if (hasControl(ctx, 'setSepaCapabilityStatus')) {
    await setSepaStatus(ctx, user, sepaStates(ctx).notStarted);
    const res = await directSepa(ctx, user);
    expectStep(res, 'createBankAccount', `${opLabel(ctx, 'createBankAccount')} with account_type Sepa from ActivationNotStarted`);
    return res;
  }
  const types = (ctx.model.operations.get('createBankAccount')?.requestSchema?.properties?.account_type?.enum ?? []) as string[];
  for (const t of types) {
    const res = await asUser(ctx, user, { op: 'createBankAccount', body: { account_type: t } });
    if (is2xx(res)) return res;
  }
  return undefined;
}

/** The account_id of the user's first listed account (its id, else its details_id: reading corridor-inputs). */
function accountIdOf(list: HttpResponse): string | undefined {
  const a = listItems(list.json)[0];
  const id = field(a, 'id') ?? field(a, 'account_id') ?? field(a, 'details_id');
  return filled(id) ? String(id) : undefined;
}

const isPrimary = (w: unknown) => typeof field(w, 'role') === 'string' && String(field(w, 'role')).toLowerCase() === 'primary';
const sameAddress = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

export const unshownBankDrivers: Drivers = {
  'ENDPOINT-BANK-ACCOUNT-LIST': {
    title: 'The bank account list (path from profile.operations) answers { data: [BankAccount] }, before and after an account is ordered',
    safe: false,
    needs: ['operation:listBankAccounts'],
    async run(ctx) {
      const user = await createUser(ctx);
      const empty = await asUser(ctx, user, { op: 'listBankAccounts' });
      const expectShape = (res: HttpResponse, what: string) => {
        expect2xx(res, what, LIST);
        check(res.json !== null && typeof res.json === 'object' && !Array.isArray(res.json) && Array.isArray(field(res.json, 'data')), `${what} answered ${res.text.slice(0, 160)}: section 4 shows the list as { data: [BankAccount] }`, { rules: LIST, response: res });
        expectSchema(res, 'listBankAccounts', undefined, LIST);
      };
      expectShape(empty, `${opLabel(ctx, 'listBankAccounts')} of a new user`);
      const ordered = await orderAccount(ctx, user);
      if (!ordered) return ctx.couldNotJudge('the bank account list with an account in it', 'an account type a new user may order (eligibility is not shown), or control operation setSepaCapabilityStatus');
      expectShape(await asUser(ctx, user, { op: 'listBankAccounts' }), `${opLabel(ctx, 'listBankAccounts')} after an account was ordered`);
    },
  },

  'ENDPOINT-CORRIDOR-ESTIMATE': {
    title: 'A corridor estimate (path from profile.operations) for a Sepa recipient, its payment details and the user\'s listed account answers estimation_id and fee',
    safe: false,
    needs: ['operation:estimateCorridorTransfer', 'operation:listBankAccounts'],
    async run(ctx) {
      const user = await createUser(ctx);
      const ordered = await orderAccount(ctx, user);
      if (!ordered) ctx.skip('no bank account could be ordered for a new user (eligibility is not shown; control setSepaCapabilityStatus absent): the corridor estimate needs an account_id');
      const list = await asUser(ctx, user, { op: 'listBankAccounts' });
      expectStep(list, 'listBankAccounts', opLabel(ctx, 'listBankAccounts'));
      const accountId = accountIdOf(list);
      if (accountId === undefined) ctx.skip(`${opLabel(ctx, 'listBankAccounts')} lists no account with an id after one was ordered (when an account is listed is not shown): the corridor estimate needs an account_id`);
      const r = await createSepaRecipient(ctx, user);
      const body = requestBody(ctx, 'estimateCorridorTransfer', { destination_amount: '10.00' }, { recipient_id: r.recipientId, recipient_payment_details_id: r.paymentDetailsId, account_id: accountId });
      const res = await asUser(ctx, user, { op: 'estimateCorridorTransfer', body });
      const what = `${opLabel(ctx, 'estimateCorridorTransfer')} for a Sepa recipient and account ${accountId}`;
      if (!is2xx(res)) ctx.skip(`${what} answered HTTP ${res.status} (which recipients and accounts a corridor serves is not shown): ${res.text.slice(0, 160)}`);
      expectSchema(res, 'estimateCorridorTransfer', undefined, CORRIDOR);
      const missing = ['estimation_id', 'fee'].filter((f) => !filled(field(res.json, f)));
      check(missing.length === 0, `${what} answered without ${missing.join(', ')} (section 4: the estimate returns estimation_id and fee): ${res.text.slice(0, 200)}`, { rules: CORRIDOR, response: res });
    },
  },

  'ENDPOINT-WALLET-PRIMARY-ROLE': {
    title: 'Where listed wallets carry role: only the Primary Smart Wallet (the wallet_address init answers) reads Primary, also beside a second wallet, and none does once the control API removed the Primary',
    safe: false,
    needs: ['control:setPrimaryWallet', 'control:setSepaCapabilityStatus'],
    async run(ctx) {
      const user = await createUser(ctx);
      await setPrimaryWallet(ctx, user, true);
      await setSepaStatus(ctx, user, sepaStates(ctx).verificationRequired);
      // A second wallet beside the Primary (section 4: POST /api/v1/accounts), so "every wallet reads Primary" shows.
      const extra = await asUser(ctx, user, { op: 'createXrplAccount', body: requestBody(ctx, 'createXrplAccount', {}) });
      if (!is2xx(extra)) ctx.log(`${opLabel(ctx, 'createXrplAccount')} answered HTTP ${extra.status}: roles are read without a second wallet`);
      const list = await asUser(ctx, user, { op: 'listWallets' });
      expectStep(list, 'listWallets', opLabel(ctx, 'listWallets'));
      const items = walletItems(list.json);
      if (!items.some((w) => field(w, 'role') !== undefined)) return ctx.couldNotJudge('which listed wallet reads the role Primary', 'a role field on listed wallets (section 2: other wallet fields not shown)');
      const init = await initSepa(ctx, user);
      expectStep(init, 'initBankAccount', `${opLabel(ctx, 'initBankAccount')} of a user with a Primary Smart Wallet`);
      const primary = field(init.json, 'wallet_address');
      checkStep(typeof primary === 'string', 'initBankAccount', `init answered no wallet_address: ${init.text.slice(0, 200)}`, init);
      const primaries = items.filter(isPrimary);
      check(primaries.length <= 1, `${opLabel(ctx, 'listWallets')} lists ${primaries.length} wallets with role Primary (${primaries.map((w) => String(field(w, 'wallet_address'))).join(', ')}): only the user's Primary Smart Wallet has it`, { rules: ROLE, response: list });
      const shown = items.find((w) => sameAddress(field(w, 'wallet_address'), primary));
      if (shown !== undefined && field(shown, 'role') !== undefined) check(isPrimary(shown), `the Primary Smart Wallet ${String(primary)} (init's wallet_address) is listed with role ${JSON.stringify(field(shown, 'role'))}, not Primary`, { rules: ROLE, response: list });
      for (const w of primaries) check(sameAddress(field(w, 'wallet_address'), primary), `${opLabel(ctx, 'listWallets')} lists ${String(field(w, 'wallet_address'))} with role Primary, but init resolves the Primary Smart Wallet as ${String(primary)}`, { rules: ROLE, response: list });
      // Removed through the control API: no wallet reads Primary any more.
      await setPrimaryWallet(ctx, user, false);
      const after = await asUser(ctx, user, { op: 'listWallets' });
      expectStep(after, 'listWallets', opLabel(ctx, 'listWallets'));
      const left = walletItems(after.json).filter(isPrimary);
      check(left.length === 0, `after the control API removed the user's Primary Smart Wallet, ${opLabel(ctx, 'listWallets')} still lists ${left.map((w) => String(field(w, 'wallet_address'))).join(', ')} with role Primary`, { rules: ROLE, response: after });
    },
  },
};
