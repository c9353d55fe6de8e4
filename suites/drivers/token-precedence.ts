// AUTH-USER-TOKEN-USE on writes: a user token sent with another user's identity header (X-User-Id, -Email,
// -Wallet) never acts as that other user. Section 5 step 4: user-token calls need no identity header; the
// token's user is the caller. Whether the header is refused or ignored is not shown, so both pass; what
// fails is an object that lands with the other user. Writes whose result shows up in a list are used: a
// virtual card (GET /api/v1/cards) and an XRPL account (GET /api/v1/wallets), read as the other user.

import type { CheckContext } from '../../src/checks/types.ts';
import {
  opLabel,
  IDENTITY_KINDS, type IdentityKind, type TestUser, allInOrder, asUser, bearer, chainHeader, check, expectStep, headers, identityHeader, identityValue, is2xx, listItems,
  requestBody, rnd, smartWallets, field
} from '../kit/index.ts';
import type { RuleId } from '../../src/model/types.ts';

const RULES: RuleId[] = ['AUTH-USER-TOKEN-USE'];

/**
 * Each identity header kind's writes land on objects of their own (a unique card name, the XRPL account
 * the call answered), so the kinds go out at once; each kind's steps stay in order, and the first failure
 * in the order of IDENTITY_KINDS is reported, as when they ran one after another.
 */
export async function precedenceOnWrites(ctx: CheckContext, user: TestUser, token: string, other: TestUser): Promise<void> {
  await allInOrder(...IDENTITY_KINDS.map((kind) => () => precedenceOfKind(ctx, user, token, other, kind)));
}

async function precedenceOfKind(ctx: CheckContext, user: TestUser, token: string, other: TestUser, kind: IdentityKind): Promise<void> {
  const h = headers(bearer(token), chainHeader(ctx), { [identityHeader(ctx, kind)]: identityValue(other, kind) });
  const what = `with ${user.id}'s user token and ${identityHeader(ctx, kind)} of another user (${other.id})`;
  const name = `precedence ${rnd.hex(4)}`;
  const card = await ctx.http.send({ op: 'createVirtualCard', headers: h, body: requestBody(ctx, 'createVirtualCard', { card_name: name }) });
  const theirCards = await asUser(ctx, other, { op: 'listCards' });
  expectStep(theirCards, 'listCards', `${opLabel(ctx, 'listCards')} as the other user`);
  const id = is2xx(card) ? field(card.json, 'id') : undefined;
  const landed = listItems(theirCards.json).some((c) => field(c, 'card_data', 'card_name') === name || (id !== undefined && id !== null && String(field(c, 'id')) === String(id)));
  check(!landed, `${opLabel(ctx, 'createVirtualCard')} ${what} created the card for that other user: a user token must not act as another user (section 5)`, { rules: RULES, response: card });
  const xrpl = await ctx.http.send({ op: 'createXrplAccount', headers: h, body: requestBody(ctx, 'createXrplAccount', {}) });
  const address = is2xx(xrpl) ? field(xrpl.json, 'wallet_address') : undefined;
  if (typeof address !== 'string') return;
  const theirWallets = (await smartWallets(ctx, other)).map((w) => w.toLowerCase());
  check(!theirWallets.includes(address.toLowerCase()), `${opLabel(ctx, 'createXrplAccount')} ${what} created XRPL account ${address} for that other user: a user token must not act as another user (section 5)`, { rules: RULES, response: xrpl });
}
