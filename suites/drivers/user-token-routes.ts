// AUTH-USER-TOKEN-USE on every route that accepts a user token, not only the user reads. Section 5 user
// token issuance step 4: "The client calls with Authorization: Bearer <USER_TOKEN> and X-Chain-Id; user
// identity headers are not needed". The routes are the model's x-auth user operations
// (suites/kit/rows.ts userTokenRoutes), one request each: the walk asks one thing of every route (is the
// token taken as a credential), so one answer per route decides it and a fault wired on a single route
// is always met. The count is the number of such routes the target can be reached on (path known, no
// money mover; under --safe the x-mutates false ones).

import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { ErrorRule, RuleId } from '../../src/model/types.ts';
import { credentialRow as credentialRowOf } from '../../src/client/index.ts';
import { bearer, chainHeader, check, headers, inBatches, userTokenRoutes } from '../kit/index.ts';

const RULES: RuleId[] = ['AUTH-USER-TOKEN-USE'];

/** The section 7 credentials row the answer is (same status, reason and message), if any. */
export function credentialRow(ctx: CheckContext, res: HttpResponse): ErrorRule | undefined {
  return credentialRowOf(ctx.model, res);
}

/**
 * Sends `token` with X-Chain-Id and no identity header to every route that accepts a user token. An
 * answer passes unless it is a 401 or a section 7 credentials row (reading every-user-route): a made-up
 * card id or an empty body may be refused for that input (400, 404), which says nothing about the token.
 */
export async function userTokenOnEveryRoute(ctx: CheckContext, token: string): Promise<number> {
  const ops = userTokenRoutes(ctx);
  const h = headers(bearer(token), chainHeader(ctx));
  // One request per route, and no route's answer depends on another's (made-up ids, bodies that name
  // nothing of another route): PROBE_BATCH at once, judged in the listed order (suites/kit/batches.ts).
  await inBatches(ops, (o) => ctx.http.send({ op: o.op, ...(o.params ? { params: o.params } : {}), headers: h, body: o.body }), (o, res) => {
    const row = credentialRow(ctx, res);
    check(res.status !== 401 && !row,
      `${o.label} with a user token and ${ctx.model.auth.chain_header}, no identity header, was refused as a credential fault (HTTP ${res.status}${row ? `, section 7 row ${row.id}` : ''}): section 5 step 4 lets the client call with the user token and X-Chain-Id alone`,
      { rules: RULES, response: res });
  });
  return ops.length;
}
