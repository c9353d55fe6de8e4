// The SepaAccount capability (section 3): statuses by role read from the model's machine, the status
// read through GET /api/v2/user, and the direct and wallet-linking activation calls.

import { arrayOf, field } from '../../src/checks/body.ts';
import { opLabel } from './http.ts';
import { randomBytes } from 'node:crypto';
import { check, expect2xx } from '../../src/checks/assert.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { StateName, StateRuleId } from '../../src/model/types.ts';
import { requireSigned } from './control.ts';
import { userHeaders } from './identity.ts';
import { type TestUser, asUser, readUser } from './users.ts';

/** SepaAccount capability status read through GET /api/v2/user (undefined when the capability is absent). */
export async function sepaStatus(ctx: CheckContext, user: TestUser): Promise<{ status: unknown; res: HttpResponse }> {
  const res = await readUser(ctx, 'v2', await userHeaders(ctx, user));
  expect2xx(res, opLabel(ctx, 'getUserV2'));
  const cap = arrayOf(field(res.json, 'capabilities')).find((c) => field(c, 'type') === 'SepaAccount');
  return { status: field(cap, 'status'), res };
}

/** A section 3 machine from the model (spec/rules/states.yaml); throws when it is absent. */
export function machine(ctx: CheckContext, name: string) {
  const m = ctx.model.machines.find((x) => x.name === name);
  if (!m) throw new Error(`spec/rules/states.yaml has no ${name} machine`);
  return m;
}

/** The SepaAccount statuses of section 3, from the model (spec/rules/states.yaml). */
export function sepaStatuses(ctx: CheckContext): StateName[] {
  const states = machine(ctx, 'SepaAccount').states;
  if (states.length === 0) throw new Error('spec/rules/states.yaml: the SepaAccount machine lists no states (section 3 values)');
  return states;
}

export interface SepaStates {
  notStarted: string;
  verificationRequired: string;
  registrationPending: string;
  inProgress: string;
  active: string;
}

function transitionOf(ctx: CheckContext, ruleId: StateRuleId) {
  const r = ctx.model.rule(ruleId);
  const t = r.kind === 'state' ? r.transitions?.[0] : undefined;
  if (!t) throw new Error(`spec/rules/states.yaml: rule ${ruleId} has no transition`);
  return t;
}

/** The SepaAccount statuses by role, read from the section 3 transitions of the model. */
export function sepaStates(ctx: CheckContext): SepaStates {
  const direct = transitionOf(ctx, 'STATE-SEPA-DIRECT-ACTIVATION');
  const link = transitionOf(ctx, 'STATE-SEPA-WALLET-LINK-ACTIVATION');
  const webhook = transitionOf(ctx, 'STATE-SEPA-WEBHOOK-ACTIVE');
  if (!direct.to || !webhook.to) throw new Error('spec/rules/states.yaml: SEPA activation transitions lack a target state');
  const named = [direct.from, link.from, direct.to, webhook.to];
  const rest = sepaStatuses(ctx).filter((x) => !named.includes(x));
  if (rest.length !== 1) throw new Error(`spec/rules/states.yaml: expected exactly one SepaAccount state outside the activation transitions (registration pending), found ${JSON.stringify(rest)}`);
  return { notStarted: direct.from, verificationRequired: link.from, registrationPending: rest[0], inProgress: direct.to, active: webhook.to };
}

/** A well-formed signature nobody made (for refusals where the signature is not the point). */
export function unsignedChallenge(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

export async function initSepa(ctx: CheckContext, user: TestUser, chain: unknown = ctx.profile.chain_id): Promise<HttpResponse> {
  return asUser(ctx, user, { op: 'initBankAccount', body: { chain } });
}

/** POST /api/v1/bank/accounts/complete with `signed_challenge` as given. */
export async function completeSepa(ctx: CheckContext, user: TestUser, signed: string, chain: unknown = ctx.profile.chain_id): Promise<HttpResponse> {
  return asUser(ctx, user, { op: 'completeBankAccount', body: { chain, signed_challenge: signed } });
}

/** init, then the test wallet signs the challenge: the input of a complete whose only possible fault is what the caller changes. */
export async function initAndSign(ctx: CheckContext, user: TestUser, what = opLabel(ctx, 'initBankAccount')): Promise<{ init: HttpResponse; challenge: string; signed: string }> {
  const init = await initSepa(ctx, user);
  expect2xx(init, what);
  const challenge = field(init.json, 'challenge');
  check(typeof challenge === 'string' && challenge.length > 0, `${what}: no challenge string in ${init.text.slice(0, 200)}`, { response: init });
  return { init, challenge, signed: await requireSigned(ctx, user, challenge) };
}

export async function directSepa(ctx: CheckContext, user: TestUser): Promise<HttpResponse> {
  return asUser(ctx, user, { op: 'createBankAccount', body: { account_type: 'Sepa' } });
}
