// Cards: virtual card creation and listing (section 4), and "Close is terminal" (section 3).

import {
  opLabel,
  expectSchema, asUser, check, createUser, expect2xx, is2xx, listItems, field
} from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { OperationId, RuleId } from '../../src/model/types.ts';
import type { Drivers } from './driver.ts';
import { actionEffect } from './cards-effects.ts';
import { createCard, readBackUntil, sameStatus } from './cards-read.ts';
import { sensitiveDrivers } from './cards-sensitive.ts';

export { createCard } from './cards-read.ts';

const CARD_ACTIONS: OperationId[] = ['activateCard', 'blockCard', 'unblockCard'];
const RULES: RuleId[] = ['STATE-CARD-CLOSE-TERMINAL'];

/** The status an answer gives for card `id`: a card object (its id, when it carries one, must be `id`); else undefined. */
function cardStatusIn(body: unknown, id: string): unknown {
  const c = (body as { data?: unknown })?.data !== undefined && !Array.isArray((body as { data?: unknown }).data) ? (body as { data: unknown }).data : body;
  if (typeof c !== 'object' || c === null || Array.isArray(c)) return undefined;
  const o = c as { id?: unknown; status?: unknown };
  if (o.id !== undefined && String(o.id) !== id) return undefined;
  return o.status === undefined || o.status === null ? undefined : o.status;
}

const AS_CREATED: RuleId[] = ['ENDPOINT-CARD-AS-CREATED'];
const LISTED: RuleId[] = ['ENDPOINT-CARDS'];

/** The virtual format (section 2 "Card formats are virtual and plastic"; the rule's facts), any letter case (reading format-spelling). */
function virtualFormat(ctx: CheckContext): string {
  const f = (ctx.model.rule('ENDPOINT-CARD-AS-CREATED') as { facts?: Record<string, unknown> }).facts?.format;
  if (typeof f !== 'string') throw new Error('spec/rules/general.yaml: ENDPOINT-CARD-AS-CREATED has no facts.format');
  return f;
}

/** card_data of a card made by the virtual endpoint: the name sent and the virtual format. */
function expectAsCreated(ctx: CheckContext, data: unknown, name: string, where: string, res: HttpResponse): void {
  const want = virtualFormat(ctx);
  const fails: string[] = [];
  const cardName = field(data, 'card_name');
  const format = field(data, 'format');
  if (cardName !== name) fails.push(`card_data.card_name ${JSON.stringify(cardName)}, sent ${JSON.stringify(name)}`);
  if (typeof format !== 'string' || format.toLowerCase() !== want.toLowerCase()) fails.push(`card_data.format ${JSON.stringify(format)}, expected the ${want} format (any letter case): the card was created through ${opLabel(ctx, 'createVirtualCard')}`);
  check(fails.length === 0, `${where}: ${fails.join('; ')}`, { rules: AS_CREATED, response: res });
}

export const drivers: Drivers = {
  ...sensitiveDrivers,
  'STATE-CARD-ACTION-EFFECT': actionEffect,

  'ENDPOINT-CARDS': {
    title: '{op:createVirtualCard} with card_name creates a card with an id; {op:listCards} lists it in { data: [Card] } with card_data.card_name as sent and the virtual format (also on the create answer when it carries card_data)',
    safe: false,
    alsoCovers: ['ENDPOINT-CARD-AS-CREATED'],
    async run(ctx) {
      const user = await createUser(ctx);
      const card = await createCard(ctx, user);
      // The create answer is "card with id" (section 4); the name is compared on the list.
      expectSchema(card.res, 'createVirtualCard', undefined, LISTED);
      const list = await asUser(ctx, user, { op: 'listCards' });
      expect2xx(list, opLabel(ctx, 'listCards'), LISTED);
      expectSchema(list, 'listCards', undefined, LISTED);
      const listed = list.json.data.find((c) => String(c.id) === card.id);
      check(listed, `card ${card.id} is not in ${opLabel(ctx, 'listCards')} { data: [...] }`, { rules: LISTED, response: list });
      check(listed.card_data.card_name === card.name, `listed card_data.card_name ${JSON.stringify(listed.card_data.card_name)}, expected ${JSON.stringify(card.name)}`, { rules: AS_CREATED, response: list });
      // What was asked is what is reported (ENDPOINT-CARD-AS-CREATED): the create answer shows only "card with id"
      // (section 4), so its card_data is compared when carried; the list carries the section 2 Card.
      const created = card.res.json.card_data;
      // null: not carried (ENDPOINT-RESPONSE-SCHEMA reading null-when-optional).
      if (created != null) expectAsCreated(ctx, created, card.name, `the ${opLabel(ctx, 'createVirtualCard')} answer`, card.res);
      expectAsCreated(ctx, listed.card_data, card.name, `card ${card.id} in ${opLabel(ctx, 'listCards')}`, list);
    },
  },

  'STATE-CARD-CLOSE-TERMINAL': {
    title: 'After close, activate, block and unblock (those with a path in the profile) do not bring the card back: refused, or a no-op whose answer and list entry keep the closed status (an unlisted closed card: its action answers must not show it moved)',
    safe: false,
    needs: ['operation:closeCard'],
    async run(ctx) {
      const actions = CARD_ACTIONS.filter((op) => ctx.profile.operations[op]);
      if (actions.length === 0) ctx.skip('the profile gives no path for activateCard, blockCard or unblockCard, so nothing can be tried after close');
      const user = await createUser(ctx);
      const card = await createCard(ctx, user);
      const statusNow = async () => {
        const list = await asUser(ctx, user, { op: 'listCards' });
        expect2xx(list, opLabel(ctx, 'listCards'));
        const item = listItems(list.json).find((c) => String(field(c, 'id')) === card.id);
        return { listed: item !== undefined, status: field(item, 'status'), list };
      };
      const before = await statusNow();
      const close = await asUser(ctx, user, { op: 'closeCard', params: { card_id: card.id } });
      expect2xx(close, 'closing a new virtual card');
      // When a close shows in the list is not shown: the closed state is read once it has (bounded).
      const closed = await readBackUntil(ctx, statusNow, (r) => !r.listed || !sameStatus(r.status, before.status));
      // Card states are not shown: a closed card may drop out of the list. Then what the server itself
      // answers tells: the status close answered (or the list showed) is the closed one, and an action
      // whose 2xx answer carries this card with another status says the card moved (close is terminal).
      const closedStatus = closed.listed ? closed.status : cardStatusIn(close.json, card.id);
      if (!closed.listed) ctx.log(`the closed card ${card.id} is no longer listed by ${opLabel(ctx, 'listCards')}; close answered status ${JSON.stringify(closedStatus)}; only an action answer or a comeback can show it moved`);
      for (const op of actions) {
        const res = await asUser(ctx, user, { op, params: { card_id: card.id } });
        const answered = is2xx(res) ? cardStatusIn(res.json, card.id) : undefined;
        if (answered !== undefined) {
          // Compared with the closed status the server showed; when it showed none, with the pre-close one.
          const moved = closedStatus !== undefined ? answered !== closedStatus : answered === before.status;
          check(!moved, `${op} on the closed card answered HTTP ${res.status} with status ${JSON.stringify(answered)}; ${closedStatus !== undefined ? `after close it was ${JSON.stringify(closedStatus)}` : `its pre-close status was ${JSON.stringify(before.status)}`}: close is terminal (section 3)`, { rules: RULES, response: res });
        }
        const now = await statusNow();
        if (closed.listed) {
          // Dropping a closed card from the list later is not a move out of the closed state (card
          // states and list contents are not shown; STATE-CARD-CLOSE-TERMINAL reading delisted-later).
          if (!now.listed) {
            ctx.log(`after ${op} the closed card is no longer listed by ${opLabel(ctx, 'listCards')} (it was listed as ${JSON.stringify(closed.status)} after close)`);
            continue;
          }
          check(now.status === closed.status, `after ${op} on the closed card its status moved from ${JSON.stringify(closed.status)} to ${JSON.stringify(now.status)}${is2xx(res) ? ` (${op} answered HTTP ${res.status})` : ''}`, { rules: RULES, response: now.list });
          if (is2xx(res)) ctx.log(`${op} on the closed card answered HTTP ${res.status} and changed nothing (a no-op)`);
        } else if (now.listed) {
          // It came back: fail when it came back as it was before close (not closed), else report what it shows.
          check(now.status !== before.status, `after ${op} the closed card re-appeared in ${opLabel(ctx, 'listCards')} with its pre-close status ${JSON.stringify(now.status)}: close is terminal`, { rules: RULES, response: now.list });
          ctx.log(`after ${op} the closed card re-appeared with status ${JSON.stringify(now.status)} (before close: ${JSON.stringify(before.status)})`);
        } else if (is2xx(res)) ctx.log(`${op} on the closed, unlisted card answered HTTP ${res.status}; the card stays unlisted`);
      }
    },
  },
};
