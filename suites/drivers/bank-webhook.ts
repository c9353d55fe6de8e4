// EVENT-BANK-ACCOUNT-DETAILS: the bank account webhook that ends a SEPA activation reports the SEPA
// account details of that activation (section 3: "bank account webhook reporting the SEPA details").
// The payload is not shown (reading details-tied): the details_id the activation answered anywhere in
// the body ties it; a delivery for this user naming only another details_id, or another account_type
// than the Sepa ordered, reports another account; one naming none is tied through the bank account list
// when the profile gives its path, else accepted with a warning.

import type { CheckContext, ReceivedWebhook } from '../../src/checks/types.ts';
import { type TestUser, asUser, check, is2xx, listItems, mentionsDeep, warnReading } from '../kit/index.ts';

const RULE = 'EVENT-BANK-ACCOUNT-DETAILS';
/** The account_type of section 3's direct SEPA activation. */
const SEPA = 'Sepa';

type Obj = Record<string, unknown>;
const isObj = (o: unknown): o is Obj => o !== null && typeof o === 'object' && !Array.isArray(o);

/** Values of the fields named `key` anywhere in a body (4 levels). */
function valuesOf(body: unknown, key: string): unknown[] {
  const out: unknown[] = [];
  let level: unknown[] = [body];
  for (let d = 0; d < 4 && level.length > 0; d++) {
    const next: unknown[] = [];
    for (const o of level) {
      if (Array.isArray(o)) next.push(...o);
      else if (isObj(o)) {
        if (key in o) out.push(o[key]);
        next.push(...Object.values(o));
      }
    }
    level = next;
  }
  return out;
}

/** An account_type other than Sepa in a delivery, or undefined. */
function otherType(body: unknown): unknown {
  return valuesOf(body, 'account_type').find((t) => !(typeof t === 'string' && t.toLowerCase() === SEPA.toLowerCase()));
}

/** Ties deliveries that name no details_id to the activation through the listed account's own values. */
async function tiedByList(ctx: CheckContext, user: TestUser, detailsId: string, hooks: ReceivedWebhook[]): Promise<boolean | undefined> {
  if (!ctx.profile.operations?.listBankAccounts) return undefined;
  const list = await asUser(ctx, user, { op: 'listBankAccounts' });
  if (!is2xx(list)) return undefined;
  const account = listItems(list.json).find((a) => mentionsDeep(a, detailsId));
  if (!account) return undefined;
  const own = new Set([user.id, user.address, user.email].map((v) => v.toLowerCase()));
  const values = Object.values(account as Obj).filter((v): v is string => typeof v === 'string' && v.length >= 6 && !own.has(v.toLowerCase()));
  return hooks.some((w) => values.some((v) => mentionsDeep(w.body, v)));
}

/**
 * Judges the deliveries on `path` for this activation: waits (within `deadline`) for one naming the
 * details_id; otherwise judges those that mention the user.
 */
export async function expectDetailsReported(ctx: CheckContext, user: TestUser, path: string, detailsId: unknown, deadline: number): Promise<void> {
  if (typeof detailsId !== 'string' && typeof detailsId !== 'number') return ctx.log('the activation answered no details_id: the webhook\'s details are not compared (STATE-SEPA-DIRECT-ACTIVATION judges the answer)');
  const id = String(detailsId);
  const hooks = ctx.services.webhooks!;
  const hit = await hooks.waitFor(path, (b) => mentionsDeep(b, id), Math.max(0, deadline - Date.now()), ctx.signal);
  if (hit) {
    const t = otherType(hit.body);
    check(t === undefined, `the bank account webhook for details_id ${id} reports account_type ${JSON.stringify(t)}; the activation ordered ${SEPA}`, { rules: [RULE] });
    return;
  }
  const mine = hooks.all().filter((w) => w.path === path && [user.id, user.address, user.email].some((v) => mentionsDeep(w.body, v)));
  const named = [...new Set(mine.flatMap((w) => valuesOf(w.body, 'details_id')).map((v) => JSON.stringify(v)))];
  check(named.length === 0, `the bank account webhook for this user names details_id ${named.join(', ')}, not ${id}, the details_id this activation answered: it reports another account's details`, { rules: [RULE] });
  const t = mine.map((w) => otherType(w.body)).find((v) => v !== undefined);
  check(t === undefined, `the bank account webhook for this user reports account_type ${JSON.stringify(t)}; the activation ordered ${SEPA}`, { rules: [RULE] });
  const tied = await tiedByList(ctx, user, id, mine);
  check(tied !== false, `the bank account webhook for this user carries neither details_id ${id} nor any value of the account profile.operations.listBankAccounts lists with it`, { rules: [RULE] });
  if (tied === undefined) warnReading(ctx, RULE, 'details-tied', `the bank account webhook for this user carries no details_id (${id} expected) and no bank account read ties it to the activation`);
}
