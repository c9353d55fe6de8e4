// Cards as the documented read shows them: a new virtual card (section 4 POST /api/v1/cards/virtual),
// and one card read back through GET /api/v1/cards ("{ data: [Card] }", section 2), polled a bounded
// time where an action may show later than its answer (when it shows is not shown).

import { asUser, checkStep, expectStep, field, listItems, opLabel, rnd, type TestUser } from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';

export async function createCard(ctx: CheckContext, user: TestUser, name = `conform ${rnd.hex(3)}`) {
  const res = await asUser(ctx, user, { op: 'createVirtualCard', body: { card_name: name } });
  expectStep(res, 'createVirtualCard', opLabel(ctx, 'createVirtualCard'));
  const id = field(res.json, 'id');
  checkStep(id !== undefined && id !== null, 'createVirtualCard', `the new card has no id: ${res.text.slice(0, 200)}`, res);
  return { id: String(id), name, res };
}

/** One card as the list shows it: listed or not, and its status. */
export interface CardRead {
  listed: boolean;
  status: unknown;
  list: HttpResponse;
}

/** Card `id` of `user` as GET /api/v1/cards lists it now; a list that cannot be read is a failed step. */
export async function readCard(ctx: CheckContext, user: TestUser, id: string): Promise<CardRead> {
  const list = await asUser(ctx, user, { op: 'listCards' });
  expectStep(list, 'listCards', opLabel(ctx, 'listCards'));
  const item = listItems(list.json).find((c) => String(field(c, 'id')) === id);
  return { listed: item !== undefined, status: field(item, 'status'), list };
}

/**
 * Two statuses are the same when equal, strings in any letter case: status names are not shown, so
 * only a change is judged, and "Active" vs "ACTIVE" is a spelling, not a change.
 */
export function sameStatus(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  return JSON.stringify(a) === JSON.stringify(b);
}

/** How long a check polls GET /api/v1/cards for an action's effect (when it shows is not shown). */
export const CARD_EFFECT_WAIT_MS = 10_000;
const POLL_MS = 250;

/** Reads the card until `done` holds or the bound passes; the last read either way. */
export async function readBackUntil(ctx: CheckContext, read: () => Promise<CardRead>, done: (r: CardRead) => boolean, boundMs = CARD_EFFECT_WAIT_MS): Promise<CardRead> {
  const end = Date.now() + boundMs;
  for (let i = 0; i <= Math.ceil(boundMs / POLL_MS); i++) {
    const r = await read();
    if (done(r) || Date.now() >= end) return r;
    await new Promise((res) => setTimeout(res, POLL_MS));
    ctx.signal.throwIfAborted();
  }
  return read();
}
