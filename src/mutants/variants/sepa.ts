// SEPA activation (section 3) and bank accounts (section 4).

import { proxyJson } from '../proxy-edits.ts';
import { field, is2xx, isObject, items, onOk } from '../transforms.ts';
import { faults, faulty, op, type VariantSpec } from '../variant.ts';

/** Builds the sepa variants (stateful transforms get fresh state on every call). */
export function sepaVariants(): VariantSpec[] {
  return [
    faulty('sepa.wrong-path.allowed', 'STATE-SEPA-WRONG-PATH', 'either activation path is accepted in any status', faults('sepa.allow-wrong-path')),
    faulty('sepa.wrong-path.500', 'ERR-SEPA-WRONG-PATH', 'the wrong activation path answers 500 instead of 400', faults('sepa.wrong-path-500')),
    faulty('sepa.primary-wallet.not-checked', 'STATE-SEPA-PRIMARY-WALLET-REQUIRED', 'the wallet-linking path completes without a Primary Smart Wallet', faults('sepa.no-primary-wallet-check')),
    faulty('sepa.webhook.not-activating', 'STATE-SEPA-WEBHOOK-ACTIVE', 'the SEPA details report does not move the capability to Active (it stays InProgress)', {
      transform: onOk(['getUserV2'], (b) => {
        for (const c of items(field(b, 'capabilities'))) if (isObject(c) && c.type === 'SepaAccount' && c.status === 'Active') c.status = 'InProgress';
      }),
    }),
    faulty('sepa.bank-account-webhook.missing', 'EVENT-ACTIVATION-BANK-ACCOUNT', 'SEPA activation emits no bank account webhook', faults('webhooks.no-bank-account')),
    faulty('sepa.chain-error.names-chain', 'ERR-CHAIN-NOT-NUMERIC', 'a non-numeric chain fails validation naming `chain` instead of `chain_id`', faults('sepa.chain-field-named-chain')),
    faulty('sepa.init.wallet-not-primary', 'STATE-SEPA-INIT-RESULT', "init returns a wallet_address that is not one of the user's wallets", {
      transform: onOk(['initBankAccount'], (b) => void (isObject(b) && (b.wallet_address = `0x${'b'.repeat(40)}`))),
    }),
    // Issue 18: a new details_id per Active retrieval is a reading (benign.sepa.active.new-details-id,
    // readings.ts, warns); refusing the retrieval is the fault.
    faulty('sepa.active.retrieve-refused', 'STATE-SEPA-ACTIVE-RETRIEVE', `${op('createBankAccount')} {Sepa} when the capability is Active answers the wrong-path 400 instead of retrieving the details`, faults('sepa.active-refused')),
    faulty('bank.account-type.spei-no-details-id', 'ENDPOINT-BANK-ACCOUNT-TYPES', `${op('createBankAccount')} with account_type Spei answers 200 without details_id`, {}, {
      response(req, res) {
        if (req.operationId !== 'createBankAccount' || field(req.json, 'account_type') !== 'Spei' || !is2xx(res.status)) return;
        return proxyJson(res, { account_type: 'Spei', status: 'Pending' });
      },
    }),
  ];
}
