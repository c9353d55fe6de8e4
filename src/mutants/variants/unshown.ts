// Issue 33 items 4, 5 and 8 and the Primary role read: faults in the operations whose paths the spec
// does not show (the reference serves them on its own paths, published in its profile), in wallets
// read by ID and their balances, in the Primary role as wallet reads show it, and in recipients beyond
// the card flow; and the benign freedoms those rules leave.

import { proxyError } from '../proxy-edits.ts';
import { field, isObject, onOk, type Json, type JsonObject } from '../transforms.ts';
import { benign, faults, faulty, op, type VariantSpec } from '../variant.ts';

/** Whether a recipient answer has a Sepa payment details entry. */
function hasSepa(b: Json): boolean {
  const pd = field(b, 'payment_details');
  return (Array.isArray(pd) ? pd : [pd]).some((d) => field(d, 'type') === 'Sepa');
}

/** Every Sepa payment details entry of a recipient answer. */
function eachSepa(b: Json, edit: (sepa: JsonObject) => void): void {
  const pd = field(b, 'payment_details');
  for (const d of Array.isArray(pd) ? pd : [pd]) {
    const s = field(d, 'sepa');
    if (field(d, 'type') === 'Sepa' && isObject(s)) edit(s);
  }
}

const RECIPIENT_ANSWERS = ['createRecipientV2', 'getRecipient'] as const;

export function unshownVariants(): VariantSpec[] {
  return [
    // ------------------------------------------------------------ confirmation and sensitive card data
    faulty('confirmation.sms.session-id-renamed', 'ENDPOINT-CONFIRMATION-SMS', `${op('requestSmsCode')} answers sessionId instead of session_id`, {
      transform: onOk(['requestSmsCode'], (b) => {
        if (!isObject(b)) return;
        b.sessionId = b.session_id;
        delete b.session_id;
      }),
    }),
    faulty('confirmation.verify.no-token', 'ENDPOINT-CONFIRMATION-SMS', `${op('verifySmsCode')} answers { verified: true } without the token`, {
      transform: onOk(['verifySmsCode'], () => ({ verified: true })),
    }),
    faulty('cards.sensitive.pan-no-expiry', 'ENDPOINT-CARD-SENSITIVE-DATA', `${op('getCardPan')} answers card_number without expiry_date`, {
      transform: onOk(['getCardPan'], (b) => void (isObject(b) && delete b.expiry_date)),
    }),
    faulty('cards.sensitive.cvv-as-cvc', 'ENDPOINT-CARD-SENSITIVE-DATA', `${op('getCardCvv')} answers cvc instead of cvv`, {
      transform: onOk(['getCardCvv'], (b) => {
        if (!isObject(b)) return;
        b.cvc = b.cvv;
        delete b.cvv;
      }),
    }),
    faulty('cards.sensitive.no-action-token', 'ENDPOINT-CARD-ACTION-TOKEN', `${op('getCardPan')} and ${op('getCardCvv')} answer the card data without an action_token`, faults('cards.sensitive.no-action-token')),

    // --------------------------------------------------------------------------- bank, unshown paths
    faulty('bank.accounts.list-bare-array', 'ENDPOINT-BANK-ACCOUNT-LIST', `${op('listBankAccounts')} answers a bare array instead of { data: [BankAccount] }`, {
      transform: onOk(['listBankAccounts'], (b) => field(b, 'data') ?? b),
    }),
    faulty('bank.corridor.no-fee', 'ENDPOINT-CORRIDOR-ESTIMATE', `${op('estimateCorridorTransfer')} answers estimation_id without fee`, {
      transform: onOk(['estimateCorridorTransfer'], (b) => void (isObject(b) && delete b.fee)),
    }),
    benign('benign.bank.accounts-id-only', `${op('listBankAccounts')} lists each account with its id only (bank account fields are not shown)`, {
      transform: onOk(['listBankAccounts'], (b) => {
        const data = field(b, 'data');
        if (isObject(b) && Array.isArray(data)) b.data = data.map((a) => ({ id: field(a, 'id') ?? null }));
      }),
    }),

    benign('benign.bank-account-webhook.tied-by-iban', `the bank account webhook carries the user and the IBAN but no details_id; ${op('listBankAccounts')} lists the account with that IBAN (details tied to the activation)`, {}, {
      webhook: (path, b, ctx) => {
        if (path !== ctx.profile.webhook_paths?.bank_account || !isObject(b)) return b;
        const { details_id: _d, ...rest } = b;
        return rest;
      },
    }),

    // -------------------------------------------------------------------------------------- wallets
    faulty('wallets.by-id.ignored-one-wallet', 'ENDPOINT-WALLETS', `${op('getWallet')} ignores the wallet ID, and ${op('createXrplAccount')} is refused, so the user has one wallet and listed wallets carry no id`, {
      transform: onOk(['listWallets'], (b) => {
        const items = Array.isArray(b) ? b : field(b, 'data');
        if (Array.isArray(items)) for (const w of items) if (isObject(w)) {
          delete w.id;
          delete w.wallet_id;
        }
      }),
    }, {
      request(req, ctx) {
        if (req.operationId === 'createXrplAccount') return proxyError(400, 'ErrorNotSupported', 'XRPL accounts are not offered');
        const param = ctx.profile.wallet_id_param;
        if (req.operationId !== 'getWallet' || !param || !req.query) return;
        const q = new URLSearchParams(req.query);
        q.delete(param);
        return { ...req, query: q.toString() };
      },
    }),
    faulty('wallets.balances.no-token-address', 'ENDPOINT-WALLETS', `${op('getWallet')} lists balances without token_address`, {
      transform: onOk(['getWallet'], (b) => {
        const bal = field(b, 'balances');
        if (Array.isArray(bal)) for (const x of bal) if (isObject(x)) delete x.token_address;
      }),
    }),
    benign('benign.wallets.unfunded', `${op('getWallet')} and ${op('listWallets')} answer every wallet with empty balances (a new wallet may hold nothing)`, {
      transform: onOk(['getWallet', 'listWallets'], (b) => {
        const items = Array.isArray(b) ? b : Array.isArray(field(b, 'data')) ? (field(b, 'data') as Json[]) : [b];
        for (const w of items) if (isObject(w) && Array.isArray(w.balances)) w.balances = [];
      }),
    }),
    faulty('wallets.role.all-primary', 'ENDPOINT-WALLET-PRIMARY-ROLE', `${op('listWallets')} lists every wallet with role Primary`, {
      transform: onOk(['listWallets'], (b) => {
        const items = Array.isArray(b) ? b : field(b, 'data');
        if (Array.isArray(items)) for (const w of items) if (isObject(w)) w.role = 'Primary';
      }),
    }),
    benign('benign.wallets.no-role', `${op('listWallets')} lists wallets without a role field (other wallet fields are not shown)`, {
      transform: onOk(['listWallets'], (b) => {
        const items = Array.isArray(b) ? b : field(b, 'data');
        if (Array.isArray(items)) for (const w of items) if (isObject(w)) delete w.role;
      }),
    }),

    // ----------------------------------------------------------------------------------- recipients
    faulty('recipients.sepa.no-id', 'ENDPOINT-RECIPIENT-SEPA', `${op('createRecipientV2')} answers a Sepa recipient without its id`, {
      transform: onOk(['createRecipientV2'], (b) => void (isObject(b) && hasSepa(b) && delete b.id)),
    }),
    faulty('recipients.sepa.iban-other', 'ENDPOINT-RECIPIENT-SEPA', 'recipient answers report a Sepa recipient with another iban than the one sent', {
      transform: onOk([...RECIPIENT_ANSWERS], (b) => eachSepa(b, (s) => void (s.iban = 'FR7630006000011234567890189'))),
    }),
    faulty('recipients.sepa.is-business-false', 'ENDPOINT-RECIPIENT-SEPA', 'recipient answers report is_business false whatever was sent', {
      transform: onOk([...RECIPIENT_ANSWERS], (b) => void (isObject(b) && b.is_business !== undefined && (b.is_business = false))),
    }),
    faulty('recipients.personal-info.flattened', 'ENDPOINT-RECIPIENT-AS-CREATED', 'recipient answers carry first_name and last_name at the top level instead of personal_info', {
      transform: onOk([...RECIPIENT_ANSWERS], (b) => {
        const p = field(b, 'personal_info');
        if (!isObject(b) || !isObject(p)) return;
        b.first_name = p.first_name;
        b.last_name = p.last_name;
        delete b.personal_info;
      }),
    }),
    benign('benign.recipients.no-is-business', 'recipient answers carry no is_business (a create input section 2 does not show on the Recipient)', {
      transform: onOk([...RECIPIENT_ANSWERS], (b) => void (isObject(b) && delete b.is_business)),
    }),
    benign('benign.recipients.sepa-lowercase-iban', 'recipient answers write the Sepa iban in lower case with spaces every four characters (a display form of the same IBAN)', {
      transform: onOk([...RECIPIENT_ANSWERS], (b) => eachSepa(b, (s) => void (typeof s.iban === 'string' && (s.iban = s.iban.toLowerCase().replace(/(.{4})/g, '$1 ').trim())))),
    }),
  ];
}
