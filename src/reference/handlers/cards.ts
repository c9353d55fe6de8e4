// Cards and 3DS challenges (sections 3, 4; section 7 other rule 1). Card statuses are not shown by the
// spec: Active, Blocked, Closed (terminal) are the reference's.

import { randomUUID } from 'node:crypto';
import { Fields } from '../fields.ts';
import type { Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import type { Card } from '../state/store.ts';
import * as view from '../views.ts';
import { ok, sleep, userOf, type Handler } from './common.ts';

/** The caller's cards; under `cards.closed-unlisted` a card once closed is no longer listed (a soft delete). */
export const listCards = (ctx: Ctx, st: RefState): Reply => {
  const hide = st.fault('cards.closed-unlisted');
  const now = Date.now();
  const shown = (c: Card) => (c.listed && now < c.listed.untilMs ? view.card({ ...c, status: c.listed.status }) : view.card(c));
  return ok({ data: userOf(ctx).cards.filter((c) => !(hide && c.closed)).map(shown) });
};

/** How long the list lags behind an action under `cards.effects-deferred`. */
const DEFERRED_MS = 1000;

/** Faults that make an action answer success and change nothing. */
const NOOP_FAULTS = { activate: 'cards.activate-noop', block: 'cards.block-noop', unblock: 'cards.unblock-noop', close: 'cards.close-noop' } as const;

export function createVirtualCard(ctx: Ctx, st: RefState): Reply {
  const name = new Fields(st.errors).string(ctx.body, 'card_name', 64);
  const c: Card = { id: randomUUID(), status: st.fault('cards.created-inactive') ? 'Inactive' : 'Active', card_data: { card_name: name, format: 'virtual' }, created_at: st.clock.nowSec() };
  userOf(ctx).cards.push(c);
  return ok(view.card(c));
}

export const cardAction = (action: 'activate' | 'block' | 'unblock' | 'close'): Handler => (ctx, st) => {
  const E = st.errors;
  const c = userOf(ctx).cards.find((x) => x.id === ctx.params.card_id);
  if (!c) throw E.notFound('card_id');
  if (c.status === 'Closed' && st.fault('cards.closed-actions-noop')) return ok(view.card(c));
  if (c.status === 'Closed' && !st.fault('cards.close-not-terminal')) throw E.invalid('status');
  if (st.fault(NOOP_FAULTS[action])) return ok(view.card(c));
  const before = c.status;
  switch (action) {
    case 'activate':
      if (c.status === 'Blocked') throw E.invalid('status');
      c.status = 'Active';
      break;
    case 'block':
      if (c.status === 'Inactive') throw E.invalid('status');
      c.status = 'Blocked';
      break;
    case 'unblock':
      if (c.status === 'Inactive' || st.fault('cards.unblock-refused')) throw E.invalid('status');
      c.status = st.fault('cards.unblock-inactive') ? 'Inactive' : 'Active';
      break;
    case 'close':
      c.status = 'Closed';
      c.closed = true;
      break;
  }
  if (st.fault('cards.effects-deferred') && before !== c.status) c.listed = { status: before, untilMs: Date.now() + DEFERRED_MS };
  return ok(view.card(c));
};

/** Pending, unexpired challenges of the caller only. */
export function list3ds(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  const now = st.clock.nowSec();
  const ignoreExpiry = st.fault('3ds.ignore-expiry');
  return ok(u.challenges.filter((c) => c.status === 'Pending' && (ignoreExpiry || now < c.expires_at)).map((c) => view.challenge(st, c, u)));
}

/** Approve or decline: unknown, decided, expired or another user's challenge is the same 400 row. */
export const decide3ds = (decision: 'Approved' | 'Declined'): Handler => async (ctx, st) => {
  const u = userOf(ctx);
  const c = st.store.challenges.get(ctx.params.transaction_id);
  const visible = c && (c.user_id === u.user_id || st.fault('3ds.other-user'));
  const pending = c && (c.status === 'Pending' || st.fault('3ds.allow-replay'));
  const live = c && (st.clock.nowSec() < c.expires_at || st.fault('3ds.ignore-expiry'));
  if (!c || !visible || !pending || !live) throw st.errors.rule('ERR-3DS-NOT-FOUND');
  // Check and set run in one synchronous step: the first decision wins, no lost update.
  if (st.fault('3ds.lost-update')) await sleep(100);
  c.status = decision;
  return ok({ transaction_id: c.transaction_id, status: decision });
};
