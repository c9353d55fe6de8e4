// Operations whose authentication the spec does not show (x-auth-unspecified; card tokenization on
// {pci_url} first): sent with what profile.operation_auth says, tokens from the kit's own sources
// (s2sToken, userToken). A refusal of those credentials judged nothing about the target: the check is
// blocked naming the profile key to set, never failed on a rule the call could not reach.

import { isPrerequisiteFailed, PrerequisiteFailed, sendStep } from '../../src/checks/prerequisite.ts';
import type { CheckContext, HttpRequest, HttpResponse } from '../../src/checks/types.ts';
import { credentialsHint, operationAuthHeaders, operationAuthOf, refusalText, refusesCredentials } from '../../src/client/index.ts';
import type { OperationId, RuleId } from '../../src/model/types.ts';
import { headers } from './http.ts';
import { s2sToken } from './tokens.ts';
import { sharedUser, userToken, type TestUser } from './users.ts';

/** The credential headers profile.operation_auth gives `op` ({} for mode none, or when the spec shows the operation's auth). */
export async function profileAuthHeaders(ctx: CheckContext, op: OperationId, user?: TestUser): Promise<Record<string, string>> {
  const auth = operationAuthOf(ctx.model, ctx.profile, op);
  if (!auth) return {};
  return operationAuthHeaders(ctx.model, ctx.profile, auth, {
    s2s: (client) => s2sToken(ctx, client),
    user: async () => userToken(ctx, user ?? (await sharedUser(ctx))),
  });
}

/**
 * A setup step of an x-auth-unspecified operation (sendStep with the profile's credentials): a 2xx
 * answer, else blocked by `req.op`; refused for its credentials, blocked naming
 * profile.operation_auth.<op> and no rule (PrerequisiteFailed.setting), even in a check about the operation.
 */
export async function sendWithProfileAuth(ctx: CheckContext, req: HttpRequest & { op: OperationId }, what: string, opts: { user?: TestUser; rules?: RuleId[] } = {}): Promise<HttpResponse> {
  const auth = operationAuthOf(ctx.model, ctx.profile, req.op);
  const h = headers(await profileAuthHeaders(ctx, req.op, opts.user), req.headers ?? {});
  try {
    return await sendStep(ctx.http, { ...req, headers: h }, what, opts.rules);
  } catch (err) {
    const res = isPrerequisiteFailed(err) ? err.response : undefined;
    if (!auth || !res || !refusesCredentials(ctx.model, res)) throw err;
    const given = ctx.profile.operation_auth?.[req.op] !== undefined;
    throw new PrerequisiteFailed(req.op, `${what}: ${refusalText(res)}: ${credentialsHint(req.op, auth, given)}`, { response: res, setting: `profile.operation_auth.${req.op}` });
  }
}
