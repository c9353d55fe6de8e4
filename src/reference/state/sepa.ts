// The SepaAccount statuses by the role they play in section 3, read from the model's transitions
// (spec/rules/states.yaml) so no status name is written out here: rename a status in the spec and
// `npm run generate` + tsc carry it through.

import type { Model, SepaAccountState, StateRuleId } from '../../model/types.ts';

export interface SepaRoles {
  /** Before activation: POST /api/v1/bank/accounts (Sepa) moves it on. */
  notStarted: SepaAccountState;
  /** The wallet-linking path (init, sign, complete) applies. */
  verificationRequired: SepaAccountState;
  /** Waiting at the provider: no call moves it. */
  registrationPending: SepaAccountState;
  inProgress: SepaAccountState;
  active: SepaAccountState;
  /** All statuses in spec order (control API accepts any of them). */
  all: SepaAccountState[];
}

function transitionOf(model: Model, id: StateRuleId) {
  const r = model.rule(id);
  const t = r.kind === 'state' ? r.transitions?.[0] : undefined;
  if (!t || !t.to) throw new Error(`spec/rules/states.yaml: rule ${id} has no transition with a target state`);
  return { from: t.from as SepaAccountState, to: t.to as SepaAccountState };
}

export function sepaRoles(model: Model): SepaRoles {
  const direct = transitionOf(model, 'STATE-SEPA-DIRECT-ACTIVATION');
  const link = transitionOf(model, 'STATE-SEPA-WALLET-LINK-ACTIVATION');
  const webhook = transitionOf(model, 'STATE-SEPA-WEBHOOK-ACTIVE');
  const all = model.machine('SepaAccount').states as SepaAccountState[];
  const named = [direct.from, link.from, direct.to, webhook.to];
  const rest = all.filter((s) => !named.includes(s));
  if (rest.length !== 1) throw new Error(`spec/rules/states.yaml: expected one SepaAccount status outside the activation transitions, found ${JSON.stringify(rest)}`);
  return { notStarted: direct.from, verificationRequired: link.from, registrationPending: rest[0], inProgress: direct.to, active: webhook.to, all };
}
