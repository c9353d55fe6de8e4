// Every call the checks make to the target's test-control operations (spec/control.yaml): the server
// clock, 3DS challenges, withdrawal requests, SEPA status and provider completion, the Primary wallet,
// transfer settlement and the test wallet's signature. This module is the one place a check reaches
// them, always through ctx.services.control (our control API over HTTP, an adapter file mapping them
// onto a vendor's sandbox calls, or a JS module). An operation the adapter lacks skips the check,
// naming the operation, even when a driver forgot to declare the need `control:<operationId>`.

import { isPrerequisiteFailed } from '../../src/checks/prerequisite.ts';
import type { CheckContext } from '../../src/checks/types.ts';
import type { ControlOperationId } from '../../src/model/types.ts';
import { adapterMalformed, adapterRefused, clockKeyOf, clockMoved, guardAdapter, isControlAdapterFault, type ControlAnswer, type ControlInput } from '../../src/control/index.ts';
import { missingControlOperation } from '../../src/runner/needs.ts';
import type { TestUser } from './test-user.ts';

/** True when the run's control adapter performs `operationId`. */
export function hasControl(ctx: CheckContext, operationId: ControlOperationId): boolean {
  return missingControlOperation(operationId, ctx.services) === undefined;
}

/** Sends one control operation as is: the answer whatever its status (skips when the adapter lacks it). */
export async function controlRaw(ctx: CheckContext, operationId: ControlOperationId, input: ControlInput = {}): Promise<ControlAnswer> {
  const missing = missingControlOperation(operationId, ctx.services);
  if (missing) ctx.skip(missing);
  return callControl(ctx, operationId, input);
}

/**
 * The adapter call itself, through the guard (src/control/guard.ts; the runner installs it, and a
 * check run outside the runner gets it here): an exception in the adapter's code, an unreachable
 * control endpoint or a success answer not in spec/control.yaml's shape is an adapter error, the
 * check blocked by control:<operationId> naming no rule. The check's own abort passes through.
 */
async function callControl(ctx: CheckContext, operationId: ControlOperationId, input: ControlInput): Promise<ControlAnswer> {
  return guardAdapter(ctx.services.control!, ctx.model, { clockKey: clockKeyOf(ctx.profile) }).call(ctx.http, operationId, input);
}

/** Why a refused control operation blocks the check: an adapter error, never a verdict on the target's rules. */
function refused(ctx: CheckContext, operationId: ControlOperationId, res: ControlAnswer) {
  return adapterRefused(ctx.services.control!, operationId, res);
}

/** One control operation; skips when the adapter lacks it; a refusal blocks the check (reported as blocked by control:<operationId>). */
export async function control(ctx: CheckContext, operationId: ControlOperationId, input: ControlInput = {}): Promise<ControlAnswer> {
  const res = await controlRaw(ctx, operationId, input);
  if (!res.ok) throw refused(ctx, operationId, res);
  return res;
}

const forUser = (user: TestUser) => ({ user_id: user.id });

/** Moves the target's clock forward (control advanceClock); the guard records the move, the run undoes it at its end (resetClock). */
export async function advanceClock(ctx: CheckContext, seconds: number): Promise<void> {
  await control(ctx, 'advanceClock', { body: { seconds } });
}

/** Seconds the target's clock stands ahead by moves of this process not yet undone (tolerance for "now" comparisons). */
export function clockSkewAllowance(ctx: CheckContext): number {
  return clockMoved(clockKeyOf(ctx.profile));
}

export async function create3ds(ctx: CheckContext, user: TestUser): Promise<{ transaction_id: string; expires_at?: number }> {
  const res = await control(ctx, 'create3dsChallenge', { params: forUser(user), body: { amount: 12.5, currency: 'EUR' } });
  const id = res.json?.transaction_id;
  if (typeof id !== 'string') throw adapterMalformed(ctx.services.control!, 'create3dsChallenge', `answered no transaction_id: ${res.text.slice(0, 200)}`);
  const expires = res.json?.expires_at;
  return { transaction_id: id, ...(typeof expires === 'number' ? { expires_at: expires } : {}) };
}

export async function createWithdrawal(ctx: CheckContext, user: TestUser, destination: string): Promise<unknown> {
  return (await control(ctx, 'createWithdrawalRequest', { params: forUser(user), body: { destination_address: destination } })).json;
}

export async function setSepaStatus(ctx: CheckContext, user: TestUser, status: string): Promise<void> {
  await control(ctx, 'setSepaCapabilityStatus', { params: forUser(user), body: { status } });
}

export async function setPrimaryWallet(ctx: CheckContext, user: TestUser, present: boolean): Promise<void> {
  await control(ctx, 'setPrimaryWallet', { params: forUser(user), body: { present } });
}

/** The provider reports the SEPA details (control completeSepaActivation stands in for the provider). */
export async function completeSepaByProvider(ctx: CheckContext, user: TestUser): Promise<void> {
  await control(ctx, 'completeSepaActivation', { params: forUser(user), body: {} });
}

/**
 * Settles a card transfer now (control completeActivity) when the adapter can; false when it cannot
 * or refuses, so the caller waits for the target to settle on its own schedule.
 */
export async function settleActivity(ctx: CheckContext, activityId: string): Promise<boolean> {
  if (!hasControl(ctx, 'completeActivity')) return false;
  let res: ControlAnswer;
  try {
    res = await callControl(ctx, 'completeActivity', { params: { activity_id: activityId }, body: {} });
  } catch (err) {
    // As with a refusal: the caller waits for the target's own settlement instead. An exception in
    // the adapter's own code or a malformed answer is reported, not waited out.
    if (!isPrerequisiteFailed(err) || (isControlAdapterFault(err) && (err.adapter.problem === 'threw' || err.adapter.problem === 'malformed'))) throw err;
    ctx.log(`${err.message}; waiting for the target to settle on its own`);
    return false;
  }
  if (!res.ok) ctx.log(`control completeActivity answered HTTP ${res.status}; waiting for the target to settle on its own`);
  return res.ok;
}

/**
 * The Primary Smart Wallet's signature of `challenge`, from the target's test wallet (control
 * signChallenge; the spec does not show the signature scheme and the wallet keys live with the
 * target). Undefined when the adapter does not map signChallenge or the endpoint is absent (404/405/501).
 */
export async function signChallenge(ctx: CheckContext, user: TestUser, challenge: string): Promise<string | undefined> {
  const missing = missingControlOperation('signChallenge', ctx.services);
  if (missing) {
    ctx.log(missing);
    return undefined;
  }
  const res = await callControl(ctx, 'signChallenge', { params: forUser(user), body: { challenge } });
  if ([404, 405, 501].includes(res.status)) {
    ctx.log(`test-control signChallenge answered HTTP ${res.status}: the target has no signing endpoint`);
    return undefined;
  }
  if (!res.ok) throw refused(ctx, 'signChallenge', res);
  const signed = res.json?.signed_challenge;
  if (typeof signed !== 'string') throw adapterMalformed(ctx.services.control!, 'signChallenge', `answered no signed_challenge: ${res.text.slice(0, 200)}`);
  return signed;
}

export const NO_SIGNER = 'needs control operation signChallenge (the target\'s test wallet signing as the Primary Smart Wallet): without it the challenge cannot be signed and complete cannot succeed';

/** The signature, or a skip with NO_SIGNER when the control adapter cannot sign. */
export async function requireSigned(ctx: CheckContext, user: TestUser, challenge: string): Promise<string> {
  const s = await signChallenge(ctx, user, challenge);
  if (s === undefined) ctx.skip(NO_SIGNER);
  return s;
}

/**
 * Asks the target to emit one webhook of a section 6 kind (a webhook name the kind enum of
 * spec/control.yaml triggerWebhook gives) about `user` now (control triggerWebhook, like `stripe trigger`).
 */
export async function triggerWebhook(ctx: CheckContext, user: TestUser, kind: string): Promise<void> {
  await control(ctx, 'triggerWebhook', { params: { ...forUser(user), kind } });
}

/** The section 6 webhook name of a delivery path (spec/openapi.yaml webhooks), or undefined. */
export function webhookKindOf(ctx: CheckContext, path: string): string | undefined {
  return ctx.model.webhooks.find((w) => w.path === path)?.id;
}

/**
 * triggerWebhook for a kind the target may not emit (debt-cases, corporations, card_limit: no Partner
 * API event is documented to emit them): false when the adapter lacks the operation or the target
 * refuses the kind with a 4xx (spec/control.yaml: 400 for a kind it cannot emit; a vendor's test-event
 * call may answer 404 or 422 for an event name it lacks), so the check skips naming it; a 5xx blocks
 * the check as an adapter error.
 */
export async function triggerWebhookIfEmittable(ctx: CheckContext, user: TestUser, kind: string): Promise<boolean> {
  if (!hasControl(ctx, 'triggerWebhook')) return false;
  const res = await callControl(ctx, 'triggerWebhook', { params: { ...forUser(user), kind } });
  if (res.status >= 400 && res.status < 500) {
    ctx.log(`control triggerWebhook ${kind} answered HTTP ${res.status}: the target cannot emit that kind`);
    return false;
  }
  if (!res.ok) throw refused(ctx, 'triggerWebhook', res);
  return true;
}
