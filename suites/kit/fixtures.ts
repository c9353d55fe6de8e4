// Existing sandbox users named by the profile (profile.fixtures) for states a check cannot create
// without a control operation: a pending 3DS challenge, a pending withdrawal, a user in a given SEPA
// status. Checks use them read-only (list, read), so the same fixture serves every run.

import { expectStep } from '../../src/checks/assert.ts';
import { field } from '../../src/checks/body.ts';
import type { CheckContext } from '../../src/checks/types.ts';
import type { ControlOperationId } from '../../src/model/types.ts';
import { headers, opLabel } from './http.ts';
import { identityHeader } from './identity.ts';
import { s2sHeaders } from './tokens.ts';
import { readUser, type TestUser } from './users.ts';
import { hasControl } from './control.ts';

export type FixtureName = 'three_ds_pending' | 'withdrawal_pending';

/** The profile's fixture user for `name`, when there is one. */
export function fixtureUserId(ctx: CheckContext, name: FixtureName): string | undefined {
  return ctx.profile.fixtures?.[name]?.user_id;
}

/** A TestUser for an existing user id of clients[0]'s company, from GET /api/v1/user (read-only). */
export async function existingUser(ctx: CheckContext, userId: string): Promise<TestUser> {
  const res = await readUser(ctx, 'v1', headers(await s2sHeaders(ctx, 0), { [identityHeader(ctx, 'id')]: userId }));
  expectStep(res, 'getUserV1', `${opLabel(ctx, 'getUserV1')} for the profile fixture user ${userId}`);
  const j = res.json;
  const { new: preferred, old } = ctx.model.aliasRule('ALIAS-USER-READ-WALLET-ADDRESS');
  const address = field(j, preferred) ?? field(j, old);
  return { id: userId, email: String(field(j, 'email') ?? ''), address: String(address ?? ''), country: String(field(j, 'country') ?? ''), client: 0 };
}

/**
 * The user a check reads a pending state from: a fresh one the control operation puts in that state,
 * or, without the operation, the profile's fixture user (read-only). `create` runs only in the first case.
 */
export async function userInState(
  ctx: CheckContext,
  operationId: ControlOperationId,
  fixture: FixtureName,
  create: () => Promise<TestUser>,
): Promise<{ user: TestUser; fixture: boolean }> {
  if (hasControl(ctx, operationId)) return { user: await create(), fixture: false };
  const id = fixtureUserId(ctx, fixture);
  if (!id) return ctx.skip(`needs control operation ${operationId}, or profile.fixtures.${fixture} (an existing user in that state)`);
  return { user: await existingUser(ctx, id), fixture: true };
}
