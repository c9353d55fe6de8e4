// Card actions take effect (section 3: "Card operations exist for activate, block, unblock and close.
// Close is terminal. Card states and transitions: not shown."; STATE-CARD-ACTION-EFFECT). A success
// answer is not an effect: each effect is judged on the card as GET /api/v1/cards reads it back, and
// only as a change of status, never a status name (the rule's readings).

import { asUser, check, checkStep, createUser, is2xx, opLabel, warnReading, type TestUser } from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { OperationId, RuleId } from '../../src/model/types.ts';
import type { Driver } from './driver.ts';
import { CARD_EFFECT_WAIT_MS, createCard, readBackUntil, readCard, sameStatus, type CardRead } from './cards-read.ts';

const RULE: RuleId = 'STATE-CARD-ACTION-EFFECT';
const RULES: RuleId[] = [RULE];

const shown = (r: CardRead) => (r.listed ? `status ${JSON.stringify(r.status)}` : 'no longer listed');
const waited = `${CARD_EFFECT_WAIT_MS / 1000} s`;

/** The action on the card (its path comes from profile.operations: the spec does not show it). */
const act = (ctx: CheckContext, user: TestUser, op: OperationId, id: string): Promise<HttpResponse> => asUser(ctx, user, { op, params: { card_id: id } });

/** Blocks the card; a refusal gets one activate first (a card may need it: transitions are not shown). */
async function block(ctx: CheckContext, user: TestUser, id: string, read: () => Promise<CardRead>): Promise<{ res: HttpResponse; before: CardRead }> {
  let before = await read();
  let res = await act(ctx, user, 'blockCard', id);
  if (is2xx(res) || !ctx.profile.operations.activateCard) return { res, before };
  ctx.log(`${opLabel(ctx, 'blockCard')} on the new card answered HTTP ${res.status}; trying ${opLabel(ctx, 'activateCard')} first`);
  const activate = await act(ctx, user, 'activateCard', id);
  // The status block is judged against is the one after activate has shown (or its wait ran out).
  before = is2xx(activate) ? await readBackUntil(ctx, read, (r) => !r.listed || !sameStatus(r.status, before.status)) : await read();
  ctx.log(`${opLabel(ctx, 'activateCard')} answered HTTP ${activate.status}; the card now has ${shown(before)}`);
  res = await act(ctx, user, 'blockCard', id);
  return { res, before };
}

/**
 * Activate, judged on a card the server blocked (reading activate-leaves-blocked): a 2xx activate moves
 * it out of the blocked status; a refused activate judges nothing (transitions are not shown). The card
 * is blocked again first unless it still has the blocked status (an unblock refused or not tried).
 */
async function activateOnBlocked(ctx: CheckContext, user: TestUser, id: string, read: () => Promise<CardRead>, blockedStatus: unknown): Promise<void> {
  if (!ctx.profile.operations.activateCard) return ctx.log('the profile gives no activateCard path: activate is not judged');
  const now = await read();
  if (!now.listed) return ctx.log(`card ${id} is no longer listed: activate is not judged`);
  let blocked = now;
  if (!sameStatus(now.status, blockedStatus)) {
    const res = await act(ctx, user, 'blockCard', id);
    if (!is2xx(res)) return ctx.log(`${opLabel(ctx, 'blockCard')} answered HTTP ${res.status} the second time: activate is not judged`);
    blocked = await readBackUntil(ctx, read, (r) => !r.listed || !sameStatus(r.status, now.status));
    if (!blocked.listed || sameStatus(blocked.status, now.status)) return ctx.log(`the second block left card ${id} with ${shown(blocked)}: activate is not judged`);
  }
  const activated = await act(ctx, user, 'activateCard', id);
  if (!is2xx(activated)) return ctx.log(`${opLabel(ctx, 'activateCard')} answered HTTP ${activated.status} on the blocked card (status ${JSON.stringify(blocked.status)}): not judged (transitions are not shown)`);
  const after = await readBackUntil(ctx, read, (r) => !r.listed || !sameStatus(r.status, blocked.status));
  check(after.listed && !sameStatus(after.status, blocked.status),
    `${opLabel(ctx, 'activateCard')} answered HTTP ${activated.status} on card ${id} with its blocked status ${JSON.stringify(blocked.status)}, yet after ${waited} ${opLabel(ctx, 'listCards')} shows it ${after.listed ? 'still with that status' : 'no longer listed'}: the activate did not take effect`,
    { rules: RULES, response: after.list });
}

export const actionEffect: Driver = {
  title: 'Card actions take effect as {op:listCards} reads the card back (polled up to 10 s): a 2xx block changes its status; a 2xx unblock moves it out of the blocked status (back to the status before block, else a warning); a 2xx activate on a blocked card moves it out of the blocked status; a 2xx close changes it or drops it from the list. No status name is required; a refused block (even after activate) judges nothing',
  safe: false,
  needs: ['operation:blockCard'],
  async run(ctx) {
    const user = await createUser(ctx);
    const card = await createCard(ctx, user);
    const read = () => readCard(ctx, user, card.id);
    const first = await read();
    checkStep(first.listed, 'listCards', `the new card ${card.id} is not listed by ${opLabel(ctx, 'listCards')}: its effects cannot be read back`, first.list);
    if (first.status === undefined || first.status === null) ctx.skip(`${opLabel(ctx, 'listCards')} lists card ${card.id} without a status: an action's effect cannot be read back`);

    // Block: refused (any non-2xx, even after activate) is allowed and judges nothing.
    const { res: blocked, before } = await block(ctx, user, card.id, read);
    if (!is2xx(blocked)) ctx.skip(`${opLabel(ctx, 'blockCard')} was refused (HTTP ${blocked.status}) on a new card${ctx.profile.operations.activateCard ? ' also after activate' : ' (no activateCard path in the profile to try first)'}: the spec does not show when a block is allowed, so its effect cannot be judged`);
    const afterBlock = await readBackUntil(ctx, read, (r) => !r.listed || !sameStatus(r.status, before.status));
    check(!afterBlock.listed || !sameStatus(afterBlock.status, before.status),
      `${opLabel(ctx, 'blockCard')} answered HTTP ${blocked.status}, yet ${opLabel(ctx, 'listCards')} still lists card ${card.id} with its pre-block status ${JSON.stringify(before.status)} after ${waited}: the block did not take effect`,
      { rules: RULES, response: afterBlock.list });
    ctx.log(`after block the card has ${shown(afterBlock)} (before: ${JSON.stringify(before.status)})`);

    // Unblock: judged on a card still listed after block (a delisted one shows no status to leave).
    if (ctx.profile.operations.unblockCard && afterBlock.listed) {
      const unblocked = await act(ctx, user, 'unblockCard', card.id);
      if (!is2xx(unblocked)) {
        warnReading(ctx, RULE, 'unblock-refused', `${opLabel(ctx, 'unblockCard')} on the card just blocked (status ${JSON.stringify(afterBlock.status)}) answered HTTP ${unblocked.status}`);
      } else {
        const afterUnblock = await readBackUntil(ctx, read, (r) => r.listed && !sameStatus(r.status, afterBlock.status));
        check(afterUnblock.listed && !sameStatus(afterUnblock.status, afterBlock.status),
          `${opLabel(ctx, 'unblockCard')} answered HTTP ${unblocked.status}, yet after ${waited} ${opLabel(ctx, 'listCards')} shows card ${card.id} ${afterUnblock.listed ? `still with its blocked status ${JSON.stringify(afterBlock.status)}` : 'no longer listed'}: the unblock did not take effect`,
          { rules: RULES, response: afterUnblock.list });
        if (!sameStatus(afterUnblock.status, before.status)) warnReading(ctx, RULE, 'unblock-other-status', `after unblock card ${card.id} has status ${JSON.stringify(afterUnblock.status)}; before block it had ${JSON.stringify(before.status)}, blocked ${JSON.stringify(afterBlock.status)}`);
      }
    } else if (!ctx.profile.operations.unblockCard) ctx.log('the profile gives no unblockCard path: unblock is not judged');
    if (afterBlock.listed) await activateOnBlocked(ctx, user, card.id, read, afterBlock.status);

    // Close: a 2xx close must leave another status, or drop the card (reading close-changes-status).
    if (!ctx.profile.operations.closeCard) return ctx.log('the profile gives no closeCard path: close is not judged');
    const preClose = await read();
    if (!preClose.listed) return ctx.log(`card ${card.id} is no longer listed before close: close is not judged`);
    const closed = await act(ctx, user, 'closeCard', card.id);
    if (!is2xx(closed)) return ctx.log(`${opLabel(ctx, 'closeCard')} answered HTTP ${closed.status} on a card with status ${JSON.stringify(preClose.status)}: not judged (transitions are not shown)`);
    const afterClose = await readBackUntil(ctx, read, (r) => !r.listed || !sameStatus(r.status, preClose.status));
    check(!afterClose.listed || !sameStatus(afterClose.status, preClose.status),
      `${opLabel(ctx, 'closeCard')} answered HTTP ${closed.status}, yet after ${waited} ${opLabel(ctx, 'listCards')} still lists card ${card.id} with its pre-close status ${JSON.stringify(preClose.status)}: the close did not take effect and leaves the card usable`,
      { rules: RULES, response: afterClose.list });
  },
};
