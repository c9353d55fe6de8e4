// Deprecated aliases (section 9): responses, requests and webhooks.

import { randomUUID } from 'node:crypto';
import { USER_READ_OPS } from '../ops.ts';
import { has, onAliasWebhook, refuseAliasOnly } from '../proxy-edits.ts';
import { isObject, items, onOk, type JsonObject } from '../transforms.ts';
import { faults, faulty, op, type VariantSpec } from '../variant.ts';

/** Builds the aliases variants (stateful transforms get fresh state on every call). */
export function aliasesVariants(): VariantSpec[] {
  return [
    faulty('alias.user-read.wallet-address-dropped', 'ALIAS-USER-READ-WALLET-ADDRESS', 'user reads omit the deprecated wallet_address', {
      transform: onOk(USER_READ_OPS, (b) => void (isObject(b) && delete b.wallet_address)),
    }),
    faulty('alias.user-read.id-diverges', 'ALIAS-USER-READ-ID', 'user reads carry a deprecated id different from user_id', {
      transform: onOk(USER_READ_OPS, (b) => void (has(b, 'id') && (b.id = randomUUID()))),
    }),
    faulty('alias.3ds.owner-dropped', 'ALIAS-3DS-OWNER', '3DS challenges omit the deprecated owner', {
      transform: onOk(['list3dsRequests'], (b) => {
        for (const c of items(b)) if (isObject(c)) delete c.owner;
      }),
    }),
    faulty('alias.withdrawal.to-address-diverges', 'ALIAS-WITHDRAWAL-TO-ADDRESS', 'withdrawal requests carry a deprecated to_address different from the preferred name', {
      transform: onOk(['listWithdrawalRequests'], (b) => {
        for (const w of items(b)) if (isObject(w)) w.to_address = `0x${'d'.repeat(40)}`;
      }),
    }),
    faulty('alias.withdrawal.account-address-dropped', 'ALIAS-WITHDRAWAL-ACCOUNT-ADDRESS', 'withdrawal requests omit the deprecated account_address', {
      transform: onOk(['listWithdrawalRequests'], (b) => {
        for (const w of items(b)) if (isObject(w)) delete w.account_address;
      }),
    }),
    faulty('alias.mismatch.accepted', 'ALIAS-MISMATCH-REJECTED', 'a request carrying a new name and its deprecated alias with different values is accepted', faults('alias.accept-mismatch')),
    faulty('alias.fx.deprecated-only-refused', 'ALIAS-FX-DEPOSIT-ADDRESS', 'FX estimate with only the deprecated deposit_address is refused (400, the preferred name missing)', {}, refuseAliasOnly('estimateFx', 'ALIAS-FX-DEPOSIT-ADDRESS')),
    faulty('alias.user-create-v2.deprecated-only-refused', 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2', `${op('createUserV2')} with only the deprecated wallet_address is refused`, {}, refuseAliasOnly('createUserV2', 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2')),
    faulty('alias.statement.owner-only-refused', 'ALIAS-STATEMENT-OWNER', 'the statement request with only the deprecated owner is refused', {}, refuseAliasOnly('getFullStatement', 'ALIAS-STATEMENT-OWNER')),
    faulty('alias.xrpl.wallet-address-renamed', 'ALIAS-UNCHANGED-WALLET-NAMES', `the XRPL ${op('createXrplAccount')} response names wallet_address "address"`, {
      transform: onOk(['createXrplAccount'], (b) => {
        if (!has(b, 'wallet_address')) return;
        const o: JsonObject = b;
        o.address = o.wallet_address;
        delete o.wallet_address;
      }),
    }),

    faulty('alias.webhook.user-owner-dropped', 'ALIAS-WEBHOOK-USER-OWNER', 'the user webhook omits the deprecated owner', {}, {
      webhook: onAliasWebhook('ALIAS-WEBHOOK-USER-OWNER', (b, old) => void delete b[old]),
    }),
    faulty('alias.webhook.3ds-owner-diverges', 'ALIAS-WEBHOOK-3DS-OWNER', 'the 3DS webhook carries an owner different from the preferred name', {}, {
      webhook: onAliasWebhook('ALIAS-WEBHOOK-3DS-OWNER', (b, old) => void (has(b, old) && (b[old] = `0x${'e'.repeat(40)}`))),
    }),
    faulty('alias.webhook.withdrawal-to-address-dropped', 'ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS', 'the ERC-20 withdrawal webhook omits the deprecated to_address', {}, {
      webhook: onAliasWebhook('ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS', (b, old) => void delete b[old]),
    }),
  ];
}
