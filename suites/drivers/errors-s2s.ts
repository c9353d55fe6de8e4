// Section 7 S2S rows: the faulty Authorization header (missing, not Bearer, expired, forged, a claim
// removed) is the only fault on every operation the rows apply to (suites/kit/rows.ts family s2s-token:
// reads, writes with a shown body, those that create something included, and the S2S form of authorize).
// Joined into the errors drivers (suites/drivers/errors.ts); the generated suite is suites/generated/errors.ts.

import fc from 'fast-check';
import type { CheckContext } from '../../src/checks/types.ts';
import type { ErrorRuleId, RuleId } from '../../src/model/types.ts';
import { PrerequisiteFailed } from '../../src/checks/prerequisite.ts';
import type { Driver, Drivers } from './driver.ts';
import { rowFixtureIds, rowStepBodies } from './row-steps.ts';
import {
  bearer, chainHeader, expectError, expire, forgeHs256, headers, identityHeader, jwtClaims, rnd, s2sToken, sharedUser, tamperSignature,
  rowOnOperations, rowOperations, sweepOperations, sweepRow, type RowOperation, allInOrder, inBatches,
} from '../kit/index.ts';

/**
 * Headers of an S2S row probe besides the token under test: X-Chain-Id, and on user-scoped operations
 * X-User-Id of an existing user of client 0, so the token is the only possibly faulty part.
 */
async function s2sProbeHeaders(ctx: CheckContext, o: RowOperation, tokenHeaders: Record<string, string | undefined>): Promise<Record<string, string>> {
  const extra: Record<string, string> = {};
  const op = ctx.model.operation(o.op);
  // The S2S form of authorize (x-auth s2s + idp) is sent as section 5 step 2 shows it: X-User-Wallet, no Identity header.
  if (op.auth.includes('idp')) extra[identityHeader(ctx, 'wallet')] = (await sharedUser(ctx)).address;
  else if (op.userScoped) extra[identityHeader(ctx, 'id')] = (await sharedUser(ctx)).id;
  return headers(chainHeader(ctx), extra, tokenHeaders);
}

/** Which token forms an operation runs with first: all on the row's own operations, one in turn elsewhere (fast-check picks more). */
export const formsFor = <T>(ops: RowOperation[], forms: T[]) => (i: number): T[] => (ops[i].weight === 1 ? forms : [forms[i % forms.length]]);

/**
 * Tries an S2S row on every operation it applies to (suites/kit/rows.ts family s2s-token: reads, writes
 * with a shown body that move no money, user creation, the S2S form of authorize), each with one of
 * `forms` (the faulty Authorization headers) as its only fault; a failure names the operation.
 * Requests: one per operation (its first run; every form on the row's own operations), then at most
 * forms + 2 fast-check picks. The creating writes and authorize (issue 33) add one request each per
 * row, and against a conforming target create nothing: the row refuses them.
 */
async function s2sRowOnOperations(ctx: CheckContext, ruleId: ErrorRuleId, forms: Record<string, string | undefined>[]): Promise<void> {
  // The shared fixtures (built once per target, row-steps.ts) are independent of each other: fetched at once.
  const [bodies, ids] = await Promise.all([rowStepBodies(ctx), rowFixtureIds(ctx)]);
  const ops = rowOperations(ctx, ruleId, 's2s-token', bodies);
  // The rest of the family (path parameters, bodies not shown, money movers), one request each, the forms in turn.
  const rest = sweepOperations(ctx, 's2s-token', ops, ids);
  // Every request carries the row's fault, so none changes what another sees (a conforming target refuses
  // them all): the fast-check runs and the sweep go out at once, a failure of the runs reported first.
  await allInOrder(
    () => rowOnOperations(ctx, ops, fc.constantFrom(...forms), formsFor(ops, forms), async (o, form) => {
      expectError(ctx, await ctx.http.send({ op: o.op, headers: await s2sProbeHeaders(ctx, o, form), body: o.body }), ruleId);
    }, ops.length + forms.length + 2),
    () => sweepRow(ctx, ruleId, rest, async (o) => {
      const form = forms[rest.indexOf(o) % forms.length];
      return ctx.http.send({ op: o.op, ...(o.params ? { params: o.params } : {}), headers: await s2sProbeHeaders(ctx, o, form), body: o.body });
    }),
  );
}

function s2sSecret(ctx: CheckContext): string {
  const s = ctx.profile.s2s_signing_secret;
  if (!s) ctx.skip('needs profile.s2s_signing_secret');
  return s;
}

/**
 * Re-signs a real token's claims unchanged and checks it is accepted on the row's own operations, so the
 * forged variant differs in one thing only (whether the secret matches is a property of the target).
 */
async function forgedBaseline(ctx: CheckContext, ruleId: RuleId, claims: Record<string, unknown>, secret: string): Promise<void> {
  const token = await forgeHs256(claims, secret);
  // One request per own operation, none changing what another sees (reads, or writes of the shared user's own objects).
  await inBatches(rowOperations(ctx, ruleId, 's2s-token').filter((x) => x.weight === 1), async (o) => ctx.http.send({ op: o.op, headers: await s2sProbeHeaders(ctx, o, bearer(token)), body: o.body }), (o, res) => {
    // Refused re-signed baseline: the secret does not match or the path is disturbed (a proxy's 429/307);
    // the check is blocked, blaming no rule, since it never reached the faulty token.
    if (res.status < 200 || res.status >= 300) {
      throw new PrerequisiteFailed(o.op, `profile.s2s_signing_secret does not match the target (or a probe is not valid): a re-signed copy of a real S2S token was refused with HTTP ${res.status}: ${res.text.slice(0, 200)}`, { rules: [], response: res });
    }
  });
}

function s2sForged(ruleId: ErrorRuleId, edit: (claims: Record<string, unknown>, ctx: CheckContext) => void): Driver {
  return {
    safe: false,
    needs: ['s2s_signing_secret'],
    async run(ctx) {
      const secret = s2sSecret(ctx);
      const claims = { ...jwtClaims(await s2sToken(ctx)) } as Record<string, unknown>;
      const edited = { ...claims };
      edit(edited, ctx);
      const forged = bearer(await forgeHs256(edited, secret));
      // The baseline (a re-signed copy of the real claims is accepted) and the row share nothing: both go
      // out at once, and a refused baseline is reported first (blocked), as when it ran first.
      await allInOrder(() => forgedBaseline(ctx, ruleId, claims, secret), () => s2sRowOnOperations(ctx, ruleId, [forged]));
    },
  };
}

// Requests worth their cost (issue 32): about 44 per row for one rule each, kept. The bank breaks these
// rows on one operation at a time (s2s.expiry.not-checked-on-statement, s2s.azp.not-required-on-fx-estimate,
// s2s.company-id.not-required-on-card-estimate, s2s.signature.not-checked-on-card-block, ...): one request
// per operation of the family is what meets them; the forged rows add the re-signed baseline on the own
// operations, without which a refusal could be the secret's and not the claim's.
export const s2sDrivers: Drivers = {
  'ERR-S2S-AUTH-HEADER-MISSING': {
    title: 'No Authorization header on every operation the S2S rows apply to (reads, writes with a shown body that move no money, those that create something included, user creation, the S2S form of authorize; user-scoped ones with a valid X-User-Id (authorize: X-User-Wallet) and X-Chain-Id, bodies valid): 400 ErrorMissingField "{message:ERR-S2S-AUTH-HEADER-MISSING}"',
    safe: false,
    async run(ctx) {
      await s2sRowOnOperations(ctx, 'ERR-S2S-AUTH-HEADER-MISSING', [{ Authorization: undefined }]);
    },
  },
  'ERR-S2S-BEARER-FORMAT': {
    safe: false,
    async run(ctx) {
      const token = await s2sToken(ctx);
      await s2sRowOnOperations(ctx, 'ERR-S2S-BEARER-FORMAT', [{ Authorization: token }, { Authorization: `Token ${token}` }]);
    },
  },
  'ERR-S2S-TOKEN-EXPIRED': s2sForged('ERR-S2S-TOKEN-EXPIRED', (claims, ctx) => expire(claims, ctx.model.auth.s2s_token.validity_seconds)),
  'ERR-S2S-SIGNATURE-INVALID': {
    title: 'S2S token with an altered signature, and one signed with another key, on every operation the S2S rows apply to: 401 ErrorPermissionDenied "{message:ERR-S2S-SIGNATURE-INVALID}" (no secret needed)',
    safe: false,
    async run(ctx) {
      const token = await s2sToken(ctx);
      const variants = [tamperSignature(token), await forgeHs256({ ...jwtClaims(token) }, `not-the-secret-${rnd.hex(16)}`)];
      await s2sRowOnOperations(ctx, 'ERR-S2S-SIGNATURE-INVALID', variants.map(bearer));
    },
  },
  'ERR-S2S-AZP-MISSING': s2sForged('ERR-S2S-AZP-MISSING', (claims) => {
    delete claims.azp;
  }),
  'ERR-S2S-COMPANY-ID-MISSING': s2sForged('ERR-S2S-COMPANY-ID-MISSING', (claims) => {
    delete claims.company_id;
  }),
};
