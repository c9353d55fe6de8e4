// Operation sets the variants select responses by (operationIds of spec/openapi.yaml).

import type { OperationId } from '../model/types.ts';

/** Operations that authenticate with the user identity (user token, or S2S + identity header). */
export const USER_READS: OperationId[] = ['getUserV1', 'getUserV2'];
export const IDP_OPS: OperationId[] = ['authorizeUser', 'registerRetailUser'];
export const S2S_PROBES: OperationId[] = ['getConfig', 'getValidationRules'];
export const USER_READ_OPS: OperationId[] = ['getUserV1', 'getUserV2', 'validateRetailUser'];
export const CREATE_OPS: OperationId[] = ['createUserV1', 'createUserV2', 'registerRetailUser', 'createVirtualCard', 'createRecipientV2', 'createXrplAccount', 'createBankAccount', 'tokenizeCard'];
export const THREE_DS: OperationId[] = ['approve3ds', 'decline3ds'];
/**
 * Operations whose success answer the spec closes: "carries only access_token and expires_at"
 * (section 2, the user token of authorizeUser) and "returns only id" (section 4 rule 5, retail
 * registration). Their schemas refuse other fields, so extra fields there are a fault, not a freedom.
 */
export const CLOSED_ANSWER_OPS: OperationId[] = ['authorizeUser', 'registerRetailUser'];

/** True when `op` (a matched route's operationId, `control:<name>` or none) is one of `ops`. */
export function isIn(ops: readonly OperationId[], op: string | undefined): boolean {
  return op !== undefined && (ops as readonly string[]).includes(op);
}
