// Cards: virtual card creation and listing (section 4), and "Close is terminal" (section 3).

import { expectSchema } from '../../src/checks/assert.ts';
import type { CheckContext } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { type TestUser, asUser, check, createUser, expect2xx, expectNot2xx, listItems, rnd } from './fixtures.ts';

export async function createCard(ctx: CheckContext, user: TestUser, name = `conform ${rnd.hex(3)}`) {
  const res = await asUser(ctx, user, { op: 'createVirtualCard', body: { card_name: name } });
  expect2xx(res, 'POST /api/v1/cards/virtual');
  check(res.json?.id !== undefined && res.json?.id !== null, `the new card has no id: ${res.text.slice(0, 200)}`, { response: res });
  return { id: String(res.json.id), name, res };
}

const CARD_ACTIONS = ['activateCard', 'blockCard', 'unblockCard'];

export const drivers: Drivers = {
  'ENDPOINT-CARDS': {
    safe: false,
    async run(ctx) {
      const user = await createUser(ctx);
      const card = await createCard(ctx, user);
      expectSchema(card.res, 'createVirtualCard');
      check(card.res.json.card_data?.card_name === card.name, `card_data.card_name ${JSON.stringify(card.res.json.card_data?.card_name)}, sent ${JSON.stringify(card.name)}`, { response: card.res });
      const list = await asUser(ctx, user, { op: 'listCards' });
      expect2xx(list, 'GET /api/v1/cards');
      expectSchema(list, 'listCards');
      const listed = listItems(list.json).find((c) => String(c?.id) === card.id);
      check(listed, `card ${card.id} is not in GET /api/v1/cards { data: [...] }`, { response: list });
      check(listed.card_data?.card_name === card.name, `listed card_data.card_name ${JSON.stringify(listed.card_data?.card_name)}, expected ${JSON.stringify(card.name)}`, { response: list });
    },
  },

  'STATE-CARD-CLOSE-TERMINAL': {
    title: 'After close, activate, block and unblock (those with a path in the profile) do not succeed',
    safe: false,
    needs: ['operation:closeCard'],
    async run(ctx) {
      const actions = CARD_ACTIONS.filter((op) => ctx.profile.operations[op]);
      if (actions.length === 0) ctx.skip('the profile gives no path for activateCard, blockCard or unblockCard, so nothing can be tried after close');
      const user = await createUser(ctx);
      const card = await createCard(ctx, user);
      const close = await asUser(ctx, user, { op: 'closeCard', params: { card_id: card.id } });
      expect2xx(close, 'closing a new virtual card');
      const statusNow = async () => {
        const list = await asUser(ctx, user, { op: 'listCards' });
        expect2xx(list, 'GET /api/v1/cards');
        return { status: listItems(list.json).find((c) => String(c?.id) === card.id)?.status, list };
      };
      const closed = (await statusNow()).status;
      for (const op of actions) {
        const res = await asUser(ctx, user, { op, params: { card_id: card.id } });
        expectNot2xx(res, `${op} on a closed card`);
        // The card stays as close left it: no refused action moved it.
        const { status, list } = await statusNow();
        check(status === closed, `after ${op} on the closed card its status moved from ${JSON.stringify(closed)} to ${JSON.stringify(status)}`, { response: list });
      }
    },
  },
};
