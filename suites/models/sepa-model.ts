// Model-based test (fast-check commands) of the section 3 SepaAccount machine: each run creates a fresh
// user, replays a generated sequence of activation calls (direct, wallet-link init and complete, the
// provider completing, status and Primary wallet set by control) against the target and a small model,
// and compares every answer and the status after each step. Registered from suites/models/index.ts.

import fc from 'fast-check';
import { checkProperty } from '../../src/checks/property.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { RuleId } from '../../src/model/types.ts';
import {
  type TestUser, check, completeSepa, completeSepaByProvider, createUser, directSepa, expect2xx, expectRefusedBy, expectNot2xx,
  initSepa, is2xx, runsFor, sepaStates, sepaStatus, sepaStatuses, setPrimaryWallet, setSepaStatus, signChallenge,
  unsignedChallenge, type SepaStates, warnReading, field,
} from '../kit/index.ts';

export const SEPA_MODEL_RULES: RuleId[] = [
  'STATE-SEPA-DIRECT-ACTIVATION', 'STATE-SEPA-WALLET-LINK-ACTIVATION', 'STATE-SEPA-WEBHOOK-ACTIVE', 'STATE-SEPA-ACTIVE-RETRIEVE',
  'STATE-SEPA-WRONG-PATH', 'ERR-SEPA-WRONG-PATH', 'STATE-SEPA-PRIMARY-WALLET-REQUIRED', 'VERSION-SEPA-CAPABILITY-STATUSES',
];
// The state rule: a wrong path is refused and the status does not move. Which refusal (400) is the
// error row's, named apart by expectRefusedBy so the two verdicts stay separate.
const WRONG: RuleId[] = ['STATE-SEPA-WRONG-PATH'];
const refusedWrongPath = (ctx: CheckContext, res: HttpResponse, what: string) => expectRefusedBy(ctx, res, 'ERR-SEPA-WRONG-PATH', 'STATE-SEPA-WRONG-PATH', what);

interface SepaModel {
  /** Status names by role, from the model's section 3 transitions. */
  S: SepaStates;
  status: string;
  primary: boolean;
  /** A challenge from an init in the current status and wallet state is held, signed: complete may succeed. */
  challenge: boolean;
  /** details_id the first retrieval in the current Active spell answered: later ones retrieve the same details. */
  activeDetails?: string;
}
interface SepaReal {
  ctx: CheckContext;
  user: TestUser;
  /** The signature of the latest challenge init issued and no complete used (kept across status changes). */
  signed?: string;
  /** Commands (or parts) the model could not run against this target, reported when the check ends. */
  couldNot: Set<string>;
  /** A retrieval in Active answered another details_id than the first (warned once). */
  warnedDetails?: boolean;
}

async function expectStatus(r: SepaReal, m: SepaModel, after: string, rules: RuleId[]) {
  const { status, res } = await sepaStatus(r.ctx, r.user);
  check(status === m.status, `after ${after}: SepaAccount status ${JSON.stringify(status)}, the section 3 model says ${m.status}`, { rules, response: res });
}

function detailsOk(res: HttpResponse, what: string, rules: RuleId[]) {
  expect2xx(res, what, rules);
  const id = field(res.json, 'details_id');
  check(id !== undefined && id !== null, `${what}: no details_id`, { rules, response: res });
}

class DirectCmd implements fc.AsyncCommand<SepaModel, SepaReal> {
  check = () => true;
  async run(m: SepaModel, r: SepaReal) {
    const { S } = m;
    const res = await directSepa(r.ctx, r.user);
    const from = m.status;
    if (from === S.notStarted) {
      detailsOk(res, `direct activation from ${S.notStarted}`, ['STATE-SEPA-DIRECT-ACTIVATION']);
      m.status = S.inProgress;
      await expectStatus(r, m, 'direct activation', ['STATE-SEPA-DIRECT-ACTIVATION']);
      return;
    }
    if (from === S.active) {
      detailsOk(res, `direct activation when ${S.active} (details are retrieved)`, ['STATE-SEPA-ACTIVE-RETRIEVE']);
      const id = JSON.stringify(field(res.json, 'details_id'));
      m.activeDetails ??= id;
      // Whether a retrieval answers the same details_id is a reading (STATE-SEPA-ACTIVE-RETRIEVE
      // same-details-id): another one is a warning, once per run of the model.
      if (id !== m.activeDetails && !r.warnedDetails) {
        r.warnedDetails = true;
        warnReading(r.ctx, 'STATE-SEPA-ACTIVE-RETRIEVE', 'same-details-id', `direct activation when ${S.active} answered details_id ${id}, an earlier retrieval ${m.activeDetails}`);
      }
    } else if (from === S.inProgress) {
      if (!is2xx(res)) refusedWrongPath(r.ctx, res, `direct activation from ${from}`);
    } else refusedWrongPath(r.ctx, res, `direct activation from ${from}`);
    await expectStatus(r, m, `direct activation from ${from}`, from === S.active ? ['STATE-SEPA-ACTIVE-RETRIEVE'] : WRONG);
  }
  toString = () => 'direct(Sepa)';
}

class InitCmd implements fc.AsyncCommand<SepaModel, SepaReal> {
  check = () => true;
  async run(m: SepaModel, r: SepaReal) {
    const { S } = m;
    const res = await initSepa(r.ctx, r.user);
    if (m.status === S.verificationRequired) {
      if (m.primary) expect2xx(res, 'init with a Primary Smart Wallet', ['STATE-SEPA-WALLET-LINK-ACTIVATION']);
      if (is2xx(res)) {
        const challenge = field(res.json, 'challenge');
        check(typeof challenge === 'string', 'init answered no challenge string', { rules: ['STATE-SEPA-WALLET-LINK-ACTIVATION'], response: res });
        // The test wallet signs as the Primary Smart Wallet (none to sign with when it is absent).
        const signed = m.primary ? await signChallenge(r.ctx, r.user, challenge) : undefined;
        if (m.primary && signed === undefined) r.couldNot.add('complete with a signed challenge (the control API cannot sign as the Primary Smart Wallet), so a successful wallet-linking activation was never exercised');
        r.signed = signed ?? r.signed;
        m.challenge = signed !== undefined;
      }
    } else refusedWrongPath(r.ctx, res, `init from ${m.status}`);
    await expectStatus(r, m, `init from ${m.status}`, m.status === S.verificationRequired ? ['STATE-SEPA-WALLET-LINK-ACTIVATION'] : WRONG);
  }
  toString = () => 'init';
}

class CompleteCmd implements fc.AsyncCommand<SepaModel, SepaReal> {
  check = (m: Readonly<SepaModel>) => m.status !== m.S.verificationRequired || !m.primary || m.challenge;
  async run(m: SepaModel, r: SepaReal) {
    const { S } = m;
    const from = m.status;
    // A legitimately obtained signature when there is one, so the path (or the wallet) is the only fault.
    const res = await completeSepa(r.ctx, r.user, r.signed ?? unsignedChallenge());
    if (from !== S.verificationRequired) {
      if (r.signed !== undefined) refusedWrongPath(r.ctx, res, `complete from ${from}`);
      else {
        // Never-issued signature and wrong path: two faults, so any 4xx; the status must not move (checked below).
        check(res.status >= 400 && res.status < 500, `complete from ${from} with no signed challenge: expected a 4xx refusal, got HTTP ${res.status}`, { rules: WRONG, response: res });
      }
    } else if (!m.primary) expectNot2xx(res, 'complete without a Primary Smart Wallet', ['STATE-SEPA-PRIMARY-WALLET-REQUIRED']);
    else {
      detailsOk(res, 'complete with the signed challenge', ['STATE-SEPA-WALLET-LINK-ACTIVATION']);
      m.status = S.inProgress;
      m.challenge = false;
      r.signed = undefined;
    }
    const rules: RuleId[] = from !== S.verificationRequired ? WRONG : !m.primary ? ['STATE-SEPA-PRIMARY-WALLET-REQUIRED'] : ['STATE-SEPA-WALLET-LINK-ACTIVATION'];
    await expectStatus(r, m, `complete from ${from}${m.primary ? '' : ' without a Primary wallet'}`, rules);
  }
  toString = () => 'complete';
}

class ProviderCompleteCmd implements fc.AsyncCommand<SepaModel, SepaReal> {
  check = (m: Readonly<SepaModel>) => m.status === m.S.inProgress;
  async run(m: SepaModel, r: SepaReal) {
    await completeSepaByProvider(r.ctx, r.user);
    m.status = m.S.active;
    m.activeDetails = undefined;
    await expectStatus(r, m, 'the provider reported the SEPA details', ['STATE-SEPA-WEBHOOK-ACTIVE']);
  }
  toString = () => 'provider-complete';
}

class SetStatusCmd implements fc.AsyncCommand<SepaModel, SepaReal> {
  constructor(readonly status: string) {}
  check = () => true;
  async run(m: SepaModel, r: SepaReal) {
    await setSepaStatus(r.ctx, r.user, this.status);
    // A status set from outside may stand for a new account: the next Active spell starts afresh.
    if (this.status !== m.status) m.activeDetails = undefined;
    m.status = this.status;
    m.challenge = false;
    await expectStatus(r, m, `control set ${this.status}`, ['VERSION-SEPA-CAPABILITY-STATUSES']);
  }
  toString = () => `set(${this.status})`;
}

class SetPrimaryCmd implements fc.AsyncCommand<SepaModel, SepaReal> {
  constructor(readonly present: boolean) {}
  check = () => true;
  async run(m: SepaModel, r: SepaReal) {
    await setPrimaryWallet(r.ctx, r.user, this.present);
    m.primary = this.present;
    m.challenge = false;
  }
  toString = () => `primary(${this.present})`;
}

class ReadCmd implements fc.AsyncCommand<SepaModel, SepaReal> {
  check = () => true;
  async run(m: SepaModel, r: SepaReal) {
    await expectStatus(r, m, 'a read', ['VERSION-SEPA-CAPABILITY-STATUSES']);
  }
  toString = () => 'read';
}

export async function sepaModelRun(ctx: CheckContext): Promise<void> {
  const statuses = sepaStatuses(ctx);
  const S = sepaStates(ctx);
  const cmds = fc.commands(
    [
      fc.constant(new DirectCmd()),
      fc.constant(new InitCmd()),
      fc.constant(new CompleteCmd()),
      fc.constant(new InitCmd()),
      fc.constant(new CompleteCmd()),
      fc.constant(new ProviderCompleteCmd()),
      fc.constantFrom(...statuses).map((s) => new SetStatusCmd(s)),
      fc.boolean().map((b) => new SetPrimaryCmd(b)),
      fc.constant(new ReadCmd()),
    ],
    { maxCommands: 10, size: 'medium' },
  );
  const couldNot = new Set<string>();
  // Requests worth their cost (issue 32): about 100 requests for 8 rules (some 12 a rule), kept. A
  // sequence is a user plus up to a dozen commands; its state faults show only after a particular order
  // of commands (a path taken from the status another command set, a complete after a Primary change),
  // which is what the several sequences, each from its own starting status, are for.
  // Each run sets up its own user and runs its sequence on it: independent runs.
  await checkProperty(ctx, fc.asyncProperty(fc.constantFrom(...statuses), fc.boolean(), cmds, async (initial, primary, seq) => {
    const setup = async () => {
      const user = await createUser(ctx);
      await setPrimaryWallet(ctx, user, primary);
      await setSepaStatus(ctx, user, initial);
      return { model: { S, status: initial, primary, challenge: false } as SepaModel, real: { ctx, user, couldNot } as SepaReal };
    };
    await fc.asyncModelRun(setup, seq);
  }), { numRuns: runsFor(ctx, 'model') }, { independent: true });
  // A model that silently skips a command would pass while never exercising it: say what did not run.
  // Sorted: runs go out concurrently (independent: each its own user), so insertion order is not the run order.
  for (const what of [...couldNot].sort()) ctx.warn(`states.sepa.model could not run: ${what}`);
}
