// Issue 33 items 4, 5, 8 and the Primary role read on the reference and its variants: each new check
// passes on the reference, fails naming its rule on the faulty variant of that rule, and judges
// nothing (skips) when the profile does not give the path the spec does not show.
import { describe, expect, it } from 'vitest';
import { runOnVariant } from './variant-run.testkit.ts';
import type { TargetProfile } from '../../src/profile/types.ts';

const run = runOnVariant;

const withoutOps = (...ops: string[]) => (p: TargetProfile): TargetProfile => {
  const operations = { ...(p.operations ?? {}) };
  for (const o of ops) delete operations[o];
  return { ...p, operations };
};

const CHECKS = ['cards.confirmation.sms-code', 'cards.sensitive.data', 'cards.sensitive.action-token', 'bank.accounts.list', 'bank.corridor.estimate', 'bank.primary-wallet.role', 'transfers.recipients.sepa', 'users.wallets.read'];

describe('operations whose paths the spec does not show, wallets, recipients: the new checks', () => {
  it('all pass on the reference', async () => {
    const r = await run(CHECKS);
    for (const id of CHECKS) expect(r.get(id)?.verdict, `${id}: ${JSON.stringify(r.get(id)?.failure ?? r.get(id)?.reason)}`).toBe('pass');
  }, 90_000);

  const FAULTS: [string, string, string][] = [
    ['confirmation.verify.no-token', 'cards.confirmation.sms-code', 'ENDPOINT-CONFIRMATION-SMS'],
    ['cards.sensitive.pan-no-expiry', 'cards.sensitive.data', 'ENDPOINT-CARD-SENSITIVE-DATA'],
    ['cards.sensitive.no-action-token', 'cards.sensitive.action-token', 'ENDPOINT-CARD-ACTION-TOKEN'],
    ['bank.accounts.list-bare-array', 'bank.accounts.list', 'ENDPOINT-BANK-ACCOUNT-LIST'],
    ['bank.corridor.no-fee', 'bank.corridor.estimate', 'ENDPOINT-CORRIDOR-ESTIMATE'],
    ['wallets.role.all-primary', 'bank.primary-wallet.role', 'ENDPOINT-WALLET-PRIMARY-ROLE'],
    ['recipients.sepa.is-business-false', 'transfers.recipients.sepa', 'ENDPOINT-RECIPIENT-SEPA'],
    ['recipients.personal-info.flattened', 'transfers.recipients.sepa', 'ENDPOINT-RECIPIENT-AS-CREATED'],
    ['wallets.balances.no-token-address', 'users.wallets.read', 'ENDPOINT-WALLETS'],
  ];
  for (const [variant, check, rule] of FAULTS) {
    it(`${variant}: ${check} fails naming ${rule}`, async () => {
      const r = (await run([check], variant)).get(check)!;
      expect(r.verdict, JSON.stringify(r.reason)).toBe('fail');
      expect(r.failure?.rules).toContain(rule);
    }, 60_000);
  }

  for (const variant of ['benign.recipients.no-is-business', 'benign.wallets.no-role', 'benign.wallets.unfunded', 'benign.bank.accounts-id-only', 'benign.recipients.sepa-lowercase-iban']) {
    it(`${variant} stays clean`, async () => {
      const r = await run(CHECKS, variant);
      for (const [id, res] of r) expect(res.verdict, `${id}: ${JSON.stringify(res.failure)}`).not.toBe('fail');
    }, 90_000);
  }

  it('without the paths in the profile the checks judge nothing (skipped, not passed)', async () => {
    const r = await run(['cards.confirmation.sms-code', 'cards.sensitive.data', 'cards.sensitive.action-token', 'bank.accounts.list', 'bank.corridor.estimate'],
      undefined, withoutOps('requestSmsCode', 'verifySmsCode', 'getCardPan', 'getCardCvv', 'listBankAccounts', 'estimateCorridorTransfer'));
    for (const [id, res] of r) expect(res.verdict, id).toBe('skip');
  }, 60_000);

  it('without the sandbox SMS code, sensitive card data is skipped and the confirmation check leaves verify unjudged', async () => {
    const r = await run(['cards.confirmation.sms-code', 'cards.sensitive.data'], undefined, (p) => ({ ...p, request_templates: { ...p.request_templates, verifySmsCode: {} } }));
    expect(r.get('cards.sensitive.data')?.verdict).toBe('skip');
    const c = r.get('cards.confirmation.sms-code')!;
    expect(c.verdict).toBe('pass');
    expect(JSON.stringify(c)).toMatch(/verifySmsCode\.code/);
  }, 60_000);
});
