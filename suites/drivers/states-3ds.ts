// Section 3 3DS challenge rules, focused checks: a pending challenge is decided once (approve or
// decline), expires, is scoped to its caller, and a refusal is never 401. Joined into the states drivers
// (suites/drivers/states.ts); the model-based test of the machine is suites/models/three-ds-model.ts.

import {
  opLabel, type TestUser, advanceClock, expire, asUser, bearer, chainHeader, check, create3ds, createUser, expect2xx, expectError,
  expectErrorShape, expectNot2xx, forgeHs256, headers, identityHeader, jwtClaims, listItems, mentionsDeep, unknownIdLike, s2sToken, tamperSignature, userToken, field, hasControl, rnd,
} from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import type { RuleId } from '../../src/model/types.ts';

export const THREE_DS_NEEDS = ['control:create3dsChallenge', 'operation:approve3ds', 'operation:decline3ds'] as const;
export type Decision = 'approve3ds' | 'decline3ds';

export async function decide(ctx: CheckContext, user: TestUser, op: Decision, transactionId: string): Promise<HttpResponse> {
  return asUser(ctx, user, { op, params: { transaction_id: transactionId } });
}

/** The 3DS refusal: 400 ErrorNotFound (ERR-3DS-NOT-FOUND), never 401. */
export function expect3dsNotFound(ctx: CheckContext, res: HttpResponse, rules: RuleId[]) {
  check(res.status !== 401, `3DS ${res.status === 401 ? 'answered 401' : ''}: approve and decline never return 401`, { rules: rules.includes('STATE-3DS-NEVER-401') ? ['STATE-3DS-NEVER-401'] : rules, response: res });
  expectError(ctx, res, 'ERR-3DS-NOT-FOUND', rules);
}

/** One bad token per kind the 3DS routes take (S2S altered, S2S expired when the secret is known, user token altered), each with its headers. */
async function badTokenHeaders(ctx: CheckContext, user: TestUser): Promise<[string, Record<string, string>][]> {
  const s2s = await s2sToken(ctx);
  const asS2s = (t: string) => headers(bearer(t), chainHeader(ctx), { [identityHeader(ctx, 'id')]: user.id });
  const out: [string, Record<string, string>][] = [['an altered S2S token', asS2s(tamperSignature(s2s))]];
  const secret = ctx.profile.s2s_signing_secret;
  if (secret) {
    const claims = { ...jwtClaims(s2s) } as Record<string, unknown>;
    expire(claims, ctx.model.auth.s2s_token.validity_seconds);
    out.push(['an expired S2S token', asS2s(await forgeHs256(claims, secret))]);
  }
  out.push(["an altered user token of the challenge's owner", headers(bearer(tamperSignature(await userToken(ctx, user))), chainHeader(ctx))]);
  return out;
}

export const threeDsDrivers: Drivers = {
  'STATE-3DS-DECIDE-PENDING': {
    safe: false,
    needs: [...THREE_DS_NEEDS],
    async run(ctx) {
      const user = await createUser(ctx);
      for (const op of ['approve3ds', 'decline3ds'] as const) {
        const ch = await create3ds(ctx, user);
        const list = await asUser(ctx, user, { op: 'list3dsRequests' });
        expect2xx(list, opLabel(ctx, 'list3dsRequests'));
        const items = listItems(list.json);
        // The list item's id field is not shown (section 4): the item that carries the id the control API answered, under any name.
        check(items.some((c) => mentionsDeep(c, ch.transaction_id)), `pending challenge ${ch.transaction_id} is not listed (no item carries that id)`, { response: list });
        expect2xx(await decide(ctx, user, op, ch.transaction_id), `${op} of the user's own pending challenge`);
      }
    },
  },

  'STATE-3DS-NO-REPLAY': {
    safe: false,
    needs: [...THREE_DS_NEEDS],
    alsoCovers: ['ERR-3DS-NOT-FOUND'],
    async run(ctx) {
      const rules: RuleId[] = ['STATE-3DS-NO-REPLAY', 'ERR-3DS-NOT-FOUND'];
      const user = await createUser(ctx);
      for (const [first, second] of [['approve3ds', 'approve3ds'], ['approve3ds', 'decline3ds'], ['decline3ds', 'decline3ds'], ['decline3ds', 'approve3ds']] as const) {
        const ch = await create3ds(ctx, user);
        expect2xx(await decide(ctx, user, first, ch.transaction_id), `first decision (${first})`);
        expect3dsNotFound(ctx, await decide(ctx, user, second, ch.transaction_id), rules);
      }
      // Concurrent decisions on one challenge: exactly one wins, every other is refused.
      const RACERS = 6;
      const ch = await create3ds(ctx, user);
      const answers = await Promise.all(Array.from({ length: RACERS }, (_, i) => decide(ctx, user, i % 2 ? 'decline3ds' : 'approve3ds', ch.transaction_id)));
      const wins = answers.filter((r) => r.status >= 200 && r.status < 300);
      check(wins.length === 1, `${RACERS} concurrent decisions on one challenge: ${wins.length} succeeded, exactly one may (a decision cannot be replayed)`, { rules, response: wins[1] ?? answers[0] });
      for (const r of answers) if (!(r.status >= 200 && r.status < 300)) expect3dsNotFound(ctx, r, rules);
    },
  },

  'STATE-3DS-EXPIRY': {
    title: 'A 3DS challenge can be decided within 5 minutes of creation and not after (server clock advanced through the control API)',
    safe: false,
    exclusive: true,
    needs: [...THREE_DS_NEEDS, 'control:advanceClock'],
    alsoCovers: ['LIMIT-3DS-WINDOW'],
    async run(ctx) {
      const windowS = ctx.model.limits.three_ds_window?.value;
      if (!windowS) throw new Error('the model has no three_ds_window limit');
      // A refusal inside the window breaks only the window's length (LIMIT-3DS-WINDOW); an acceptance
      // after it breaks both the length and expiry itself (the pair stays apart in a report and in kills).
      const rules: RuleId[] = ['STATE-3DS-EXPIRY', 'LIMIT-3DS-WINDOW'];
      const user = await createUser(ctx);
      const early = await create3ds(ctx, user);
      const late1 = await create3ds(ctx, user);
      const late2 = await create3ds(ctx, user);
      await advanceClock(ctx, windowS - 20);
      expect2xx(await decide(ctx, user, 'approve3ds', early.transaction_id), `approve ${windowS - 20} s after creation (inside the ${windowS} s window)`, ['LIMIT-3DS-WINDOW']);
      await advanceClock(ctx, 21 + 5);
      expect3dsNotFound(ctx, await decide(ctx, user, 'approve3ds', late1.transaction_id), rules);
      expect3dsNotFound(ctx, await decide(ctx, user, 'decline3ds', late2.transaction_id), rules);
    },
  },

  'STATE-3DS-CALLER-SCOPED': {
    title: "Another user's challenge and an unknown transaction id give the same 400 ErrorNotFound; the owner can still decide afterwards",
    safe: false,
    needs: [...THREE_DS_NEEDS],
    async run(ctx) {
      const rules: RuleId[] = ['STATE-3DS-CALLER-SCOPED'];
      const owner = await createUser(ctx);
      const other = await createUser(ctx);
      const ch = await create3ds(ctx, owner);
      const bodies: HttpResponse[] = [];
      for (const op of ['approve3ds', 'decline3ds'] as const) {
        const res = await decide(ctx, other, op, ch.transaction_id);
        expect3dsNotFound(ctx, res, rules);
        bodies.push(res);
        const unknown = await decide(ctx, owner, op, unknownIdLike(ch.transaction_id));
        expect3dsNotFound(ctx, unknown, rules);
        bodies.push(unknown);
      }
      const sig = (r: HttpResponse) => JSON.stringify([r.status, field(r.json, 'error_reason'), field(r.json, 'error_description'), field(r.json, 'error_category')]);
      for (const r of bodies) check(sig(r) === sig(bodies[0]), `the 3DS refusals differ (lookup is scoped to the caller, so all are the same 400): ${sig(bodies[0])} vs ${sig(r)}`, { response: r });
      expect2xx(await decide(ctx, owner, 'approve3ds', ch.transaction_id), "the owner approves after the other user's refused attempts");
    },
  },

  'STATE-3DS-NEVER-401': {
    title: '3DS approve and decline never return 401: not for a refused lookup (unknown, decided, another user\'s), not for a bad token (an altered S2S token, an expired one when profile.s2s_signing_secret is set, an altered user token), which is refused otherwise',
    safe: false,
    // The bad-token part needs no challenge (any transaction id: the answer is never 401), so it runs
    // without the control API too; the lookup part needs a pending challenge (create3dsChallenge).
    needs: ['operation:approve3ds', 'operation:decline3ds'],
    async run(ctx) {
      const rules: RuleId[] = ['STATE-3DS-NEVER-401'];
      const user = await createUser(ctx);
      const control = hasControl(ctx, 'create3dsChallenge');
      const transactionId = control ? (await create3ds(ctx, user)).transaction_id : rnd.uuid();
      // Section 7 other rule 1 names these routes: "never return 401" holds for a bad token too (the
      // specific rule over the general S2S and user-token tables; reading bad-token-not-401). Which
      // refusal it gets instead is not shown: any non-401 refusal with the section 7 body passes.
      for (const [what, h] of await badTokenHeaders(ctx, user)) {
        for (const op of ['approve3ds', 'decline3ds'] as const) {
          const res = await ctx.http.send({ op, params: { transaction_id: transactionId }, headers: h });
          expectNot2xx(res, `${op} with ${what}`, rules);
          check(res.status !== 401, `${op} with ${what} answered 401: 3DS approve and decline never return 401 (section 7 other rule 1)`, { rules, response: res });
          expectErrorShape(ctx, res, rules);
        }
      }
      if (!control) {
        ctx.couldNotJudge('a refused 3DS lookup (unknown, decided, another user\'s challenge) is never 401', 'control operation create3dsChallenge (a pending challenge)');
        return;
      }
      const ch = { transaction_id: transactionId };
      const other = await createUser(ctx);
      for (const op of ['approve3ds', 'decline3ds'] as const) {
        expect3dsNotFound(ctx, await decide(ctx, user, op, unknownIdLike(ch.transaction_id)), rules);
        expect3dsNotFound(ctx, await decide(ctx, other, op, ch.transaction_id), rules);
      }
      expect2xx(await decide(ctx, user, 'decline3ds', ch.transaction_id), 'the owner declines its pending challenge');
      for (const op of ['approve3ds', 'decline3ds'] as const) expect3dsNotFound(ctx, await decide(ctx, user, op, ch.transaction_id), rules);
    },
  },
};
