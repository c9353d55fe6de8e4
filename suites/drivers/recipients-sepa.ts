// Recipients beyond the card flow (section 2 Recipient): a Sepa recipient created through
// POST /api/v2/recipients, its recipient id required (reading id-required), its Sepa payment details
// (id, sepa { iban, bic }) as sent, is_business tried both ways and compared where an answer carries
// it, and the same read back through the recipient read (profile.operations.getRecipient).
// Joined into the transfers drivers (suites/drivers/transfers.ts).

import { asUser, check, expect2xx, expectSchema, expectStep, checkStep, field, is2xx, opLabel, requestBody, createUser, type TestUser } from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { RuleId } from '../../src/model/types.ts';
import type { Drivers } from './driver.ts';
import { expectRecipientAsCreated, paymentDetailsOf } from './transfers.ts';

const RULES: RuleId[] = ['ENDPOINT-RECIPIENT-SEPA'];

/** A well-formed test IBAN and BIC (formats are not shown; these pass any mod-97 or length check). */
const SEPA = { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' };

/** The profile key adjusting the Sepa create body (the Card body keeps createRecipientV2's). */
export const SEPA_TEMPLATE = 'createRecipientV2.Sepa';

/** Default create input of a Sepa recipient: the section 2 answer shape as input, with the individual fields. */
export function sepaRecipientBody(ctx: CheckContext, isBusiness: boolean): Record<string, unknown> {
  return requestBody(ctx, SEPA_TEMPLATE, { type: 'Sepa', first_name: 'Grace', last_name: 'Hopper', is_business: isBusiness, currencies: ['EUR'], sepa: { ...SEPA } });
}

const norm = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, '').toUpperCase() : v);

/** The Sepa entry of an answer's payment_details. */
export function sepaDetailsOf(json: unknown): unknown {
  return paymentDetailsOf(json).find((d) => typeof field(d, 'type') === 'string' && String(field(d, 'type')).toLowerCase() === 'sepa');
}

/** A Sepa recipient as a step of another check (the corridor estimate): its id and Sepa payment_details.id. */
export async function createSepaRecipient(ctx: CheckContext, user: TestUser): Promise<{ recipientId: string; paymentDetailsId: string; res: HttpResponse }> {
  const res = await asUser(ctx, user, { op: 'createRecipientV2', body: sepaRecipientBody(ctx, false) });
  expectStep(res, 'createRecipientV2', `${opLabel(ctx, 'createRecipientV2')} (type Sepa)`);
  const id = field(res.json, 'id');
  const pd = field(sepaDetailsOf(res.json), 'id');
  checkStep(id != null && id !== '' && pd != null && pd !== '', 'createRecipientV2', `the Sepa recipient answer carries no id or no Sepa payment_details.id: ${res.text.slice(0, 200)}`, res);
  return { recipientId: String(id), paymentDetailsId: String(pd), res };
}

/** One answer (create or read) against what was sent. */
function expectSepaRecipient(ctx: CheckContext, res: HttpResponse, sent: Record<string, unknown>, where: string): void {
  const fails: string[] = [];
  const id = field(res.json, 'id');
  if (id === undefined || id === null || id === '') fails.push('no recipient id (reading id-required)');
  const d = sepaDetailsOf(res.json);
  if (d === undefined) fails.push('no payment_details entry of type Sepa');
  else {
    if (field(d, 'id') == null || field(d, 'id') === '') fails.push('the Sepa payment_details entry has no id');
    const sepa = field(d, 'sepa');
    const want = (sent.sepa ?? {}) as Record<string, unknown>;
    for (const k of ['iban', 'bic'] as const) {
      if (typeof want[k] !== 'string') continue;
      const got = field(sepa, k);
      if (norm(got) !== norm(want[k])) fails.push(`payment_details sepa.${k} ${JSON.stringify(got)}, sent ${JSON.stringify(want[k])}`);
    }
  }
  const ib = field(res.json, 'is_business');
  if (ib !== undefined && ib !== null && typeof sent.is_business === 'boolean' && ib !== sent.is_business) fails.push(`is_business ${JSON.stringify(ib)}, sent ${String(sent.is_business)} (reading is-business-when-present)`);
  check(fails.length === 0, `${where}: ${fails.join('; ')}: ${res.text.slice(0, 240)}`, { rules: RULES, response: res });
}

export const sepaRecipientDrivers: Drivers = {
  'ENDPOINT-RECIPIENT-SEPA': {
    title: 'A Sepa recipient (type Sepa, sepa { iban, bic }, is_business false and true) created through {op:createRecipientV2} answers its id and Sepa payment details as sent, and reads back the same through the recipient read (profile.operations.getRecipient, when given)',
    safe: false,
    alsoCovers: ['ENDPOINT-RECIPIENT-AS-CREATED'],
    async run(ctx) {
      const user = await createUser(ctx);
      for (const isBusiness of [false, true]) {
        const sent = sepaRecipientBody(ctx, isBusiness);
        const res = await asUser(ctx, user, { op: 'createRecipientV2', body: sent });
        const what = `${opLabel(ctx, 'createRecipientV2')} of a Sepa recipient (is_business ${String(isBusiness)})`;
        expect2xx(res, what, RULES);
        expectSchema(res, 'createRecipientV2', undefined, RULES);
        expectSepaRecipient(ctx, res, sent, `the ${what} answer`);
        expectRecipientAsCreated(ctx, res, sent, `the ${what} answer`);
        if (!ctx.profile.operations?.getRecipient) {
          ctx.couldNotJudge('the Sepa recipient read back by its id', 'profile.operations.getRecipient (the path of the recipient read is not shown)');
          continue;
        }
        const id = String(field(res.json, 'id'));
        const read = await asUser(ctx, user, { op: 'getRecipient', params: { recipient_id: id } });
        expect2xx(read, `${opLabel(ctx, 'getRecipient')} of the Sepa recipient ${id}`, RULES);
        check(is2xx(read) && String(field(read.json, 'id')) === id, `${opLabel(ctx, 'getRecipient')} of recipient ${id} answered another recipient: ${read.text.slice(0, 200)}`, { rules: RULES, response: read });
        expectSepaRecipient(ctx, read, sent, `recipient ${id} read back`);
        expectRecipientAsCreated(ctx, read, sent, `recipient ${id} read back`);
      }
    },
  },
};
