// Section 7 user-token rows: a user token with one fault (expired, forged, a claim removed) on every
// operation that accepts a user token (suites/kit/rows.ts family user-token).
// Joined into the errors drivers (suites/drivers/errors.ts); the generated suite is suites/generated/errors.ts.

import fc from 'fast-check';
import type { CheckContext } from '../../src/checks/types.ts';
import type { ErrorRuleId } from '../../src/model/types.ts';
import { PrerequisiteFailed } from '../../src/checks/prerequisite.ts';
import type { Driver, Drivers } from './driver.ts';
import { rowFixtureIds, rowStepBodies } from './row-steps.ts';
import {
  bearer, chainHeader, check, claimPathsCarrying, expect2xx, expectError, forgeHs256, headers, jwtClaims, rnd, sharedUser,
  tamperSignature, userToken, withoutClaim, rowOnOperations, rowOperations, sweepOperations, sweepRow, type RowOperation, allInOrder, inBatches,
} from '../kit/index.ts';
import { formsFor } from './errors-s2s.ts';

/**
 * A user, its user token, and `tryRow(tokens)`: the faulty tokens sent to every operation that accepts a
 * user token (suites/kit/rows.ts family user-token: reads, and writes with a shown body that move no
 * money), each token on the row's own operations and one in turn elsewhere, then fast-check picks. The
 * real token is first shown to work on the row's own operations.
 */
async function userTokenSetup(ctx: CheckContext, ruleId: ErrorRuleId) {
  // The shared user, its token and the shared fixtures (row-steps.ts) do not depend on each other: fetched at once.
  const [{ user, token }, bodies, ids] = await allInOrder(
    async () => {
      const u = await sharedUser(ctx);
      return { user: u, token: await userToken(ctx, u) };
    },
    () => rowStepBodies(ctx),
    () => rowFixtureIds(ctx),
  );
  const ops = rowOperations(ctx, ruleId, 'user-token', bodies);
  const own = ops.filter((o) => o.weight === 1);
  const send = async (o: RowOperation, t: string) => ctx.http.send({ op: o.op, ...(o.params ? { params: o.params } : {}), headers: headers(bearer(t), chainHeader(ctx)), body: o.body });
  // One request per own operation (reads, or writes of the shared user's own objects), judged in order.
  await inBatches(own, (o) => send(o, token), (o, res) => expect2xx(res, `baseline: ${o.label} with a real user token`, ['AUTH-USER-TOKEN-USE']));
  /** A re-signed copy of the real claims works on the own operations: the signing secret matches the target. */
  const forgedBaseline = async (t: string) => inBatches(own, (o) => send(o, t), (o, res) => {
    if (res.status < 200 || res.status >= 300) {
      throw new PrerequisiteFailed(o.op, `profile.user_token_signing_secret does not match the target: a re-signed copy of a real user token was refused on ${o.op} with HTTP ${res.status}`, { rules: [], response: res });
    }
  });
  // The rest of the family (path parameters, bodies not shown, money movers), one request each, the tokens in turn.
  const rest = sweepOperations(ctx, 'user-token', ops, ids);
  // Every request carries the row's faulty token, which a conforming target refuses without effect: the
  // fast-check runs and the sweep go out at once, a failure of the runs reported first.
  const tryRow = async (tokens: string[]) => {
    await allInOrder(
      () => rowOnOperations(ctx, ops, fc.constantFrom(...tokens), formsFor(ops, tokens), async (o, t) => {
        expectError(ctx, await send(o, t), ruleId);
      }, ops.length + tokens.length + 2),
      () => sweepRow(ctx, ruleId, rest, (o) => send(o, tokens[rest.indexOf(o) % tokens.length])),
    );
  };
  let claims: Record<string, unknown>;
  try {
    claims = { ...jwtClaims(token) } as Record<string, unknown>;
  } catch {
    claims = {};
  }
  return { user, token, claims, tryRow, forgedBaseline };
}

function userSecret(ctx: CheckContext): string {
  const s = ctx.profile.user_token_signing_secret;
  if (!s) ctx.skip('needs profile.user_token_signing_secret');
  return s;
}

/** Deletes the claim(s) carrying the user's id / email / address (found by value, since the spec does not name them). */
function userClaimMissing(ruleId: ErrorRuleId, what: 'id' | 'email' | 'address'): Driver {
  return {
    safe: false,
    needs: ['user_token_signing_secret'],
    async run(ctx) {
      const secret = userSecret(ctx);
      const { user, claims, tryRow, forgedBaseline } = await userTokenSetup(ctx, ruleId);
      const value = what === 'id' ? user.id : what === 'email' ? user.email : user.address;
      // The claim names are not shown (section 5), so the claim is found by the value it carries. Section 7
      // names a user ${what} claim: a token the target issued without one, and accepted on the baseline
      // calls above, is a token missing the claim that was not refused. That is this row failing, not a skip.
      const paths = claimPathsCarrying(claims, value);
      check(paths.length > 0, `the user token the target issued carries no claim with the user's ${what} (${value}), yet the target accepted it; section 7 refuses a user token whose ${what} claim is missing. Claims: ${Object.keys(claims).join(', ') || '(none: not a JWT)'}`, { rules: [ruleId] });
      const stripped = paths.reduce(withoutClaim, claims);
      // The baseline and the row share nothing: at once, a refused baseline reported first (blocked).
      const [baseline, row] = [await forgeHs256(claims, secret), await forgeHs256(stripped, secret)];
      await allInOrder(() => forgedBaseline(baseline), () => tryRow([row]));
    },
  };
}

export const userTokenDrivers: Drivers = {
  'ERR-USER-TOKEN-EXPIRED': {
    safe: false,
    needs: ['user_token_signing_secret'],
    async run(ctx) {
      const secret = userSecret(ctx);
      const { claims, tryRow, forgedBaseline } = await userTokenSetup(ctx, 'ERR-USER-TOKEN-EXPIRED');
      check(Object.keys(claims).length > 0, 'the user token is not a JWT (section 2: access_token is a JWT); an expired copy cannot be forged', { rules: ['ERR-USER-TOKEN-EXPIRED'] });
      const baseline = await forgeHs256(claims, secret);
      const iat = typeof claims.iat === 'number' ? claims.iat : Math.floor(Date.now() / 1000);
      claims.iat = iat - 7200;
      claims.exp = iat - 3600;
      const expired = await forgeHs256(claims, secret);
      // The baseline and the row share nothing: at once, a refused baseline reported first (blocked).
      await allInOrder(() => forgedBaseline(baseline), () => tryRow([expired]));
    },
  },
  'ERR-USER-TOKEN-SIGNATURE': {
    title: 'User token with an altered signature, and one signed with another key, on every operation that accepts a user token: 401 ErrorPermissionDenied "{message:ERR-S2S-SIGNATURE-INVALID}"',
    safe: false,
    async run(ctx) {
      const { token, claims, tryRow } = await userTokenSetup(ctx, 'ERR-USER-TOKEN-SIGNATURE');
      // Section 2: access_token is a JWT (the user-token answer carries the same Token fields), so a token that is not one is no reason to skip.
      check(token.split('.').length === 3, "the user token is not a compact JWT (section 2: access_token is a JWT)", { rules: ['ERR-USER-TOKEN-SIGNATURE'] });
      const tokens = [tamperSignature(token)];
      if (Object.keys(claims).length > 0) tokens.push(await forgeHs256(claims, `not-the-secret-${rnd.hex(16)}`));
      await tryRow(tokens);
    },
  },
  'ERR-USER-TOKEN-USER-ID-MISSING': userClaimMissing('ERR-USER-TOKEN-USER-ID-MISSING', 'id'),
  'ERR-USER-TOKEN-EMAIL-MISSING': userClaimMissing('ERR-USER-TOKEN-EMAIL-MISSING', 'email'),
  'ERR-USER-TOKEN-ADDRESS-MISSING': userClaimMissing('ERR-USER-TOKEN-ADDRESS-MISSING', 'address'),
};
