// Deprecated aliases (section 9): responses, requests and webhooks.

import { randomUUID } from 'node:crypto';
import { USER_READ_OPS } from '../ops.ts';
import { has, proxyError } from '../proxy-edits.ts';
import { isObject, onOk } from '../transforms.ts';
import { faulty, faults, type VariantSpec } from '../variant.ts';

/** Builds the aliases variants (stateful transforms get fresh state on every call). */
export function aliasesVariants(): VariantSpec[] {
  return [
    faulty('alias.user-read.wallet-address-dropped', 'ALIAS-USER-READ-WALLET-ADDRESS', 'user reads omit the deprecated wallet_address', {
      transform: onOk(USER_READ_OPS, (b) => void delete b.wallet_address),
    }),
    faulty('alias.user-read.id-diverges', 'ALIAS-USER-READ-ID', 'user reads carry a deprecated id different from user_id', {
      transform: onOk(USER_READ_OPS, (b) => void (has(b, 'id') && (b.id = randomUUID()))),
    }),
    faulty('alias.3ds.owner-dropped', 'ALIAS-3DS-OWNER', '3DS challenges omit the deprecated owner', {
      transform: onOk(['list3dsRequests'], (b) => void (Array.isArray(b) && b.forEach((c: any) => delete c.owner))),
    }),
    faulty('alias.withdrawal.to-address-diverges', 'ALIAS-WITHDRAWAL-TO-ADDRESS', 'withdrawal requests carry a to_address different from destination_address', {
      transform: onOk(['listWithdrawalRequests'], (b) => void (Array.isArray(b) && b.forEach((w: any) => (w.to_address = `0x${'d'.repeat(40)}`)))),
    }),
    faulty('alias.withdrawal.account-address-dropped', 'ALIAS-WITHDRAWAL-ACCOUNT-ADDRESS', 'withdrawal requests omit the deprecated account_address', {
      transform: onOk(['listWithdrawalRequests'], (b) => void (Array.isArray(b) && b.forEach((w: any) => delete w.account_address))),
    }),
    faulty('alias.mismatch.accepted', 'ALIAS-MISMATCH-REJECTED', 'a request carrying a new name and its deprecated alias with different values is accepted', faults('alias.accept-mismatch')),
    faulty('alias.fx.deprecated-only-refused', 'ALIAS-FX-DEPOSIT-ADDRESS', 'FX estimate with only the deprecated deposit_address is refused (400 destination_address missing)', {}, {
      request(req) {
        if (req.method === 'POST' && req.path === '/api/v1/fx/estimate' && has(req.json, 'deposit_address') && !has(req.json, 'destination_address')) {
          return proxyError(400, 'ErrorMissingField', 'destination_address is required', 'destination_address');
        }
      },
    }),
    faulty('alias.user-create-v2.deprecated-only-refused', 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2', 'POST /api/v2/user with only the deprecated wallet_address is refused', {}, {
      request(req) {
        if (req.method === 'POST' && req.path === '/api/v2/user' && has(req.json, 'wallet_address') && !has(req.json, 'user_address')) {
          return proxyError(400, 'ErrorMissingField', 'user_address is required', 'user_address');
        }
      },
    }),
    faulty('alias.statement.owner-only-refused', 'ALIAS-STATEMENT-OWNER', 'the statement request with the deprecated owner instead of user_address is refused', {}, {
      request(req) {
        if (req.method === 'POST' && req.path === '/api/v1/activity/statement/full' && has(req.json, 'owner') && !has(req.json, 'user_address')) {
          return proxyError(400, 'ErrorMissingField', 'user_address is required', 'user_address');
        }
      },
    }),
    faulty('alias.xrpl.wallet-address-renamed', 'ALIAS-UNCHANGED-WALLET-NAMES', 'the XRPL POST /api/v1/accounts response names wallet_address "address"', {
      transform: onOk(['createXrplAccount'], (b) => {
        if (!has(b, 'wallet_address')) return;
        b.address = b.wallet_address;
        delete b.wallet_address;
      }),
    }),

    faulty('alias.webhook.user-owner-dropped', 'ALIAS-WEBHOOK-USER-OWNER', 'the user webhook omits the deprecated owner', {}, {
      webhook: (path, body) => (path === '/v2/webhooks/user' && isObject(body) ? (delete body.owner, body) : body),
    }),
    faulty('alias.webhook.3ds-owner-diverges', 'ALIAS-WEBHOOK-3DS-OWNER', 'the 3DS webhook carries an owner different from user_address', {}, {
      webhook: (path, body) => (path === '/v2/webhooks/3ds' && isObject(body) && has(body, 'owner') ? { ...body, owner: `0x${'e'.repeat(40)}` } : body),
    }),
    faulty('alias.webhook.withdrawal-to-address-dropped', 'ALIAS-WEBHOOK-WITHDRAWAL-TO-ADDRESS', 'the ERC-20 withdrawal webhook omits the deprecated to_address', {}, {
      webhook: (path, body) => (path === '/v2/webhooks/erc-withdrawals' && isObject(body) ? (delete body.to_address, body) : body),
    }),
  ];
}
