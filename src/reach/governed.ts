// Where a rule applies: its own spec/rules operations, plus, for the section 7 rows tried on every
// operation their credentials reach, every operation of the row's family read from the model (x-auth,
// x-user-scoped, the required header parameters). suites/kit/rows.ts picks the operations a row is
// tried on from the same predicates, so the audit's "governed" and the checks' "tried" share one source.

import type { Model, Operation, OperationId, Rule, RuleId } from '../model/types.ts';

/** Which section 7 rows: they differ in the operations they apply to (ROW_FAMILY_APPLIES). */
export type RowFamily = 'identity' | 'chain' | 's2s-token' | 'user-token';

const s2sCallable = (op: Operation) => op.auth.includes('s2s') || op.auth.includes('s2s-agnostic');

/** The model lists the chain header as a required header of the operation (section 4/5). */
export function requiresChainHeader(model: Model, op: Operation): boolean {
  const name = model.auth.chain_header.toLowerCase();
  return op.parameters.some((p) => p.in === 'header' && p.required && p.name.toLowerCase() === name);
}

/**
 * Where each family of rows applies, from the model. The identity-provider forms (x-auth idp) are left
 * to their own rows: there a missing or bad Authorization reads as the provider form's row too.
 */
export const ROW_FAMILY_APPLIES: Record<RowFamily, (model: Model, op: Operation) => boolean> = {
  // Section 5 "most endpoints need exactly one of" the headers: user-scoped operations callable with S2S.
  identity: (_model, op) => op.userScoped && op.auth.includes('s2s') && op.auth.includes('user'),
  // Section 5 "X-Chain-Id ... is also required on user calls" and POST /api/v1/user (section 4): every
  // S2S operation the model lists the header as required on.
  chain: (model, op) => requiresChainHeader(model, op) && s2sCallable(op) && !op.auth.includes('idp'),
  // Requests using an S2S token: every operation callable with one (the S2S form of authorize included).
  's2s-token': (_model, op) => s2sCallable(op),
  // Requests using a user token: every operation that accepts one (x-auth user).
  'user-token': (_model, op) => op.auth.includes('user'),
};

/**
 * The family of a section 7 row whose checks try it on every operation of the family, by the row's
 * table; the identity-header and chain rows of the S2S table are narrower than the table. Typed ids:
 * a renamed rule fails tsc here.
 */
const NARROWER: Partial<Record<RuleId, RowFamily>> = {
  'ERR-S2S-USER-IDENTIFIER-MISSING': 'identity',
  'ERR-S2S-USER-IDENTIFIER-MULTIPLE': 'identity',
  'ERR-S2S-USER-NOT-FOUND': 'identity',
  'ERR-S2S-CHAIN-ID-MISSING': 'chain',
  // Section 5 user token issuance step 4: the user token is used on every user route.
  'AUTH-USER-TOKEN-USE': 'user-token',
};

/** The row family a rule applies across, or undefined when it applies to its own operations only. */
export function rowFamilyOf(rule: Rule): RowFamily | undefined {
  const named = NARROWER[rule.id];
  if (named) return named;
  if (rule.kind !== 'error') return undefined;
  if (rule.table === 's2s') return 's2s-token';
  if (rule.table === 'user_token') return 'user-token';
  return undefined;
}

/**
 * Operations `rule` governs: its own operations, and every operation of its row family except those
 * whose authentication the spec does not show (x-auth-unspecified: their x-auth is a placeholder) and
 * those outside the API origin (the card-tokenization environment has its own credentials). An empty
 * list means the rule names no operation (a rule over every answer, or one with no request).
 */
export function governedOperations(model: Model, rule: Rule): OperationId[] {
  const out = new Set<OperationId>(rule.operations);
  const family = rowFamilyOf(rule);
  if (family) {
    for (const op of model.operations.values()) {
      if (op.server === 'api' && !op.authUnspecified && ROW_FAMILY_APPLIES[family](model, op)) out.add(op.operationId);
    }
  }
  return [...out].sort();
}
