// Card-tokenization environment ({pci_url}): POST /b2b/cards/oct turns card details into a
// card_token (Push to Card step 1). Its own listener; no API token (section 4 shows none).

import { randomBytes } from 'node:crypto';
import type { Bank } from './bank.ts';
import { Fields } from './fields.ts';
import type { Ctx, Reply, Route } from './http.ts';

const PAN = /^[0-9]{13,19}$/;
const CVV = /^[0-9]{3,4}$/;

export function pciRoutes(bank: Bank): Route[] {
  const E = bank.errors;
  const f = new Fields(E);

  const intField = (v: unknown, name: string): number => {
    if (v === undefined || v === null || v === '') throw E.missing(name);
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]{1,4}$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n)) throw E.invalid(name);
    return n;
  };

  const tokenize = (ctx: Ctx): Reply => {
    const b = ctx.body;
    const pan = f.string(b, 'card_number', 32).replace(/[\s-]/g, '');
    if (!PAN.test(pan)) throw E.invalid('card_number');
    const month = intField(b.expiry_month, 'expiry_month');
    if (month < 1 || month > 12) throw E.invalid('expiry_month');
    let year = intField(b.expiry_year, 'expiry_year');
    if (year < 100) year += 2000;
    const now = new Date(bank.nowMs());
    if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1) || year > now.getUTCFullYear() + 30) {
      throw E.invalid('expiry_year');
    }
    const cvv = b.cvv;
    if (cvv !== undefined && cvv !== null && (typeof cvv !== 'string' || !CVV.test(cvv))) throw E.invalid('cvv');
    let holder: string | undefined;
    for (const name of ['holder_name', 'card_holder_name', 'cardholder_name', 'name']) {
      holder ??= f.optString(b, name, 128);
    }
    const card_token = `ctok_${randomBytes(16).toString('hex')}`;
    bank.store.cardTokens.set(card_token, { card_token, last4: pan.slice(-4), holder_name: holder, created_at: bank.nowSec() });
    return { status: 200, body: { card_token, last4: pan.slice(-4) } };
  };

  return [{ method: 'POST', path: '/b2b/cards/oct', operationId: 'tokenizeCard', auth: 'none', handler: tokenize }];
}
