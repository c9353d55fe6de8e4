// The check-writing kit: what a driver needs besides the assertions of src/checks/assert.ts and the
// body readers of src/checks/body.ts (both re-exported here so a driver has one import). One concept per module:
//   http       header maps, Authorization / X-Chain-Id, list items, alias and deep-value helpers
//   tokens     S2S token requests and the per-target token cache
//   users      registration, shared users, user tokens, requests sent as a user
//   identity   the section 5 user identity headers
//   idp        the test identity provider's tokens and retail users
//   control    every call to the target's test-control API (clock, 3DS, withdrawals, SEPA, signing)
//   jwt        forged and tampered JWTs, claims
//   sepa       SepaAccount statuses from the model and the activation calls
//   webhooks   delivery paths and wait bounds
//   templates  request bodies the spec does not show (profile.request_templates)
//   random     fresh values and fast-check arbitraries
//   fixtures   existing users the profile names for states no control operation can create
//   readings   warnings for answers accepted only under a recorded reading (spec/rules readings)
//   operation-auth  credentials of operations whose authentication the spec does not show (profile.operation_auth)
//   batches    independent requests of one check sent at once, judged in the sequential order

export {
  CheckFailure, check, checkStep, expect2xx, expectError, expectErrorRule, expectRefusedBy, expectErrorShape, expectNot2xx, expectSchema, expectStatus, expectStep,
  expectOneOfErrors, fail, is2xx, isJsonContentType, isSkipSignal,
} from '../../src/checks/assert.ts';
export { arrayOf, field, isRecord, stringField } from '../../src/checks/body.ts';
export * from './http.ts';
export * from './tokens.ts';
export * from './users.ts';
export * from './identity.ts';
export * from './idp.ts';
export * from './control.ts';
export * from './jwt.ts';
export * from './sepa.ts';
export * from './webhooks.ts';
export * from './templates.ts';
export * from './random.ts';
export * from './fixtures.ts';
export * from './wallet-webhooks.ts';
export * from './rows.ts';
export * from './readings.ts';
export * from './operation-auth.ts';
export * from './batches.ts';
