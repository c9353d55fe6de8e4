// Card-tokenization environment ({pci_url}, operation tokenizeCard): card details become a card_token
// (Push to Card step 1). Served on its own listener; no API token (section 4 shows none).

import { randomBytes } from 'node:crypto';
import { Fields } from '../fields.ts';
import type { Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import { ok } from './common.ts';

const PAN = /^[0-9]{13,19}$/;
const CVV = /^[0-9]{3,4}$/;
/** Holder-name fields the reference reads (payload not shown by the spec). */
const HOLDER_FIELDS = ['holder_name', 'card_holder_name', 'cardholder_name', 'name'];

function intField(st: RefState, v: unknown, name: string): number {
  if (v === undefined || v === null || v === '') throw st.errors.missing(name);
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^[0-9]{1,4}$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw st.errors.invalid(name);
  return n;
}

export function tokenizeCard(ctx: Ctx, st: RefState): Reply {
  const E = st.errors;
  const f = new Fields(E);
  const b = ctx.body;
  const pan = f.string(b, 'card_number', 32).replace(/[\s-]/g, '');
  if (!PAN.test(pan)) throw E.invalid('card_number');
  const month = intField(st, b.expiry_month, 'expiry_month');
  if (month < 1 || month > 12) throw E.invalid('expiry_month');
  let year = intField(st, b.expiry_year, 'expiry_year');
  if (year < 100) year += 2000;
  const now = new Date(st.clock.nowMs());
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1) || year > now.getUTCFullYear() + 30) {
    throw E.invalid('expiry_year');
  }
  const cvv = b.cvv;
  if (cvv !== undefined && cvv !== null && (typeof cvv !== 'string' || !CVV.test(cvv))) throw E.invalid('cvv');
  let holder: string | undefined;
  for (const name of HOLDER_FIELDS) holder ??= f.optString(b, name, 128);
  const card_token = `ctok_${randomBytes(16).toString('hex')}`;
  st.store.cardTokens.set(card_token, { card_token, last4: pan.slice(-4), holder_name: holder, created_at: st.clock.nowSec() });
  return ok({ card_token, last4: pan.slice(-4) });
}
