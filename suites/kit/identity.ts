// User identity headers (section 5): X-User-Wallet, X-User-Email, X-User-Id by kind, with names read
// from the model, and the S2S header set that acts as a user.

import type { CheckContext } from '../../src/checks/types.ts';
import { headers } from './http.ts';
import { s2sHeaders } from './tokens.ts';
import type { TestUser } from './test-user.ts';

export type IdentityKind = 'wallet' | 'email' | 'id';

export const IDENTITY_KINDS: IdentityKind[] = ['wallet', 'email', 'id'];

/** Header name for an identity kind, from the model's section 5 list. */
export function identityHeader(ctx: CheckContext, kind: IdentityKind): string {
  const names = ctx.model.auth.identity_headers;
  const re = kind === 'wallet' ? /wallet/i : kind === 'email' ? /email/i : /-id$/i;
  const name = names.find((n) => re.test(n));
  if (!name) throw new Error(`the model's identity_headers ${JSON.stringify(names)} name no ${kind} header`);
  return name;
}

export function identityValue(user: TestUser, kind: IdentityKind): string {
  return kind === 'wallet' ? user.address : kind === 'email' ? user.email : user.id;
}

/** S2S token of the user's company + one identity header + X-Chain-Id. */
export async function userHeaders(ctx: CheckContext, user: TestUser, kind: IdentityKind = 'id'): Promise<Record<string, string>> {
  return headers(await s2sHeaders(ctx, user.client), { [identityHeader(ctx, kind)]: identityValue(user, kind) });
}
