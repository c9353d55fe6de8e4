// Model-based tests (fast-check commands) of the section 3 state machines. Each run creates fresh
// users, replays a generated command sequence against the target and a small model of section 3,
// and compares every answer and the observable state after each step.
// Size: over 300 lines: the SEPA and 3DS command models and their command classes share the model
// state and comparison helpers.

import fc from 'fast-check';
import { checkProperty } from '../../src/checks/property.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { RuleId } from '../../src/model/types.ts';
import {
  opLabel,
  type TestUser, advanceClock, aliasProblem, asUser, check, completeSepa, completeSepaByProvider, create3ds, createUser, directSepa, expect2xx, expectRefusedBy,
  expectNot2xx, initSepa, is2xx, listItems, runsFor, sepaStates, sepaStatus, sepaStatuses, setPrimaryWallet, setSepaStatus,
  signChallenge, unsignedChallenge, type SepaStates, CheckFailure, mentionsDeep, unknownIdLike, warnReading, field
} from '../kit/index.ts';
import { decide, expect3dsNotFound, type Decision } from '../drivers/states-3ds.ts';

// ------------------------------------------------------------------------------------------------ SEPA

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
  await checkProperty(ctx, fc.asyncProperty(fc.constantFrom(...statuses), fc.boolean(), cmds, async (initial, primary, seq) => {
    const setup = async () => {
      const user = await createUser(ctx);
      await setPrimaryWallet(ctx, user, primary);
      await setSepaStatus(ctx, user, initial);
      return { model: { S, status: initial, primary, challenge: false } as SepaModel, real: { ctx, user, couldNot } as SepaReal };
    };
    await fc.asyncModelRun(setup, seq);
  }), { numRuns: runsFor(ctx, 'model') });
  // A model that silently skips a command would pass while never exercising it: say what did not run.
  for (const what of couldNot) ctx.warn(`states.sepa.model could not run: ${what}`);
}

// ------------------------------------------------------------------------------------------------- 3DS

export const THREE_DS_MODEL_RULES: RuleId[] = [
  'STATE-3DS-DECIDE-PENDING', 'STATE-3DS-NO-REPLAY', 'STATE-3DS-CALLER-SCOPED', 'STATE-3DS-NEVER-401', 'STATE-3DS-EXPIRY', 'LIMIT-3DS-WINDOW',
  'ERR-3DS-NOT-FOUND', 'ALIAS-3DS-OWNER',
];

interface TdsModel {
  /** Seconds the server clock was moved forward since the run began. */
  clock: number;
  /** Decision window from the model (section 8). */
  window: number;
  challenges: { owner: number; decided: boolean; createdAt: number }[];
}

const live = (m: Readonly<TdsModel>, c: { createdAt: number }) => m.clock - c.createdAt < m.window;
interface TdsReal {
  ctx: CheckContext;
  users: TestUser[];
  ids: string[];
  /** status, reason, description of the first refusal: every refusal is "the same 400". */
  refusal?: string;
}

function refusalSig(res: HttpResponse): string {
  return JSON.stringify([res.status, field(res.json, 'error_reason'), field(res.json, 'error_description')]);
}

function expectRefusal(r: TdsReal, res: HttpResponse, rules: RuleId[]) {
  expect3dsNotFound(r.ctx, res, rules);
  const sig = refusalSig(res);
  r.refusal ??= sig;
  check(sig === r.refusal, `3DS refusals differ: ${r.refusal} vs ${sig} (the same 400 for every case, section 7 other rule 1)`, { rules: ['STATE-3DS-CALLER-SCOPED'], response: res });
}

class CreateChallengeCmd implements fc.AsyncCommand<TdsModel, TdsReal> {
  constructor(readonly owner: number) {}
  check = () => true;
  async run(m: TdsModel, r: TdsReal) {
    const ch = await create3ds(r.ctx, r.users[this.owner]);
    r.ids.push(ch.transaction_id);
    m.challenges.push({ owner: this.owner, decided: false, createdAt: m.clock });
  }
  toString = () => `create(user${this.owner})`;
}

class DecideCmd implements fc.AsyncCommand<TdsModel, TdsReal> {
  /** `asOwner`: the challenge's own user decides; otherwise the other user tries. */
  constructor(readonly pick: number, readonly op: Decision, readonly asOwner: boolean) {}
  check = (m: Readonly<TdsModel>) => m.challenges.length > 0;
  caller = 0;
  async run(m: TdsModel, r: TdsReal) {
    const i = this.pick % m.challenges.length;
    const ch = m.challenges[i];
    this.caller = this.asOwner ? ch.owner : 1 - ch.owner;
    const res = await decide(r.ctx, r.users[this.caller], this.op, r.ids[i]);
    if (ch.owner === this.caller && !ch.decided && live(m, ch)) {
      expect2xx(res, `${this.op} of the caller's pending challenge, ${m.clock - ch.createdAt} s after creation`, ['STATE-3DS-DECIDE-PENDING', 'STATE-3DS-EXPIRY']);
      ch.decided = true;
    } else {
      const why: RuleId = ch.owner !== this.caller ? 'STATE-3DS-CALLER-SCOPED' : ch.decided ? 'STATE-3DS-NO-REPLAY' : 'STATE-3DS-EXPIRY';
      expectRefusal(r, res, [why, 'ERR-3DS-NOT-FOUND', 'STATE-3DS-NEVER-401', ...(why === 'STATE-3DS-EXPIRY' ? ['LIMIT-3DS-WINDOW' as const] : [])]);
    }
  }
  toString = () => `${this.op}(#${this.pick}, by ${this.asOwner ? 'its owner' : 'the other user'})`;
}

class DecideUnknownCmd implements fc.AsyncCommand<TdsModel, TdsReal> {
  constructor(readonly op: Decision, readonly caller: number) {}
  // An unknown id is shaped like a real one (the id format is not shown), so it needs one to copy.
  check = (m: Readonly<TdsModel>) => m.challenges.length > 0;
  async run(_m: TdsModel, r: TdsReal) {
    expectRefusal(r, await decide(r.ctx, r.users[this.caller], this.op, unknownIdLike(r.ids[0])), ['STATE-3DS-CALLER-SCOPED', 'ERR-3DS-NOT-FOUND', 'STATE-3DS-NEVER-401']);
  }
  toString = () => `${this.op}(unknown, by user${this.caller})`;
}

class ListCmd implements fc.AsyncCommand<TdsModel, TdsReal> {
  constructor(readonly caller: number) {}
  check = () => true;
  async run(m: TdsModel, r: TdsReal) {
    const user = r.users[this.caller];
    const res = await asUser(r.ctx, user, { op: 'list3dsRequests' });
    expect2xx(res, opLabel(r.ctx, 'list3dsRequests'));
    const items = listItems(res.json);
    const mine = (i: number) => m.challenges[i].owner === this.caller && !m.challenges[i].decided;
    // Live pending challenges must be listed; decided ones must not; expired ones may be either.
    const pending = r.ids.filter((_, i) => mine(i) && live(m, m.challenges[i]));
    const expired = r.ids.filter((_, i) => mine(i) && !live(m, m.challenges[i]));
    const alias = r.ctx.model.rule('ALIAS-3DS-OWNER');
    if (alias.kind !== 'alias') throw new Error('ALIAS-3DS-OWNER is not an alias rule');
    for (const item of items) {
      const p = aliasProblem(item, alias.old, alias.new, user.address);
      if (p) throw new CheckFailure(`3DS challenge list: ${p}`, { rules: ['ALIAS-3DS-OWNER'], response: res });
    }
    // The list item's id field is not shown (section 4): an item lists a challenge when it carries its id under any name.
    const listed = r.ids.filter((id) => items.some((it) => mentionsDeep(it, id)));
    const notPending = r.ids.filter((_, i) => !mine(i));
    const rules: RuleId[] = ['STATE-3DS-DECIDE-PENDING', 'STATE-3DS-NO-REPLAY'];
    const missing = pending.filter((id) => !listed.includes(id));
    const extra = listed.filter((id) => notPending.includes(id));
    check(missing.length === 0 && extra.length === 0, `challenge list: the caller's pending ones are ${JSON.stringify(pending)}; missing ${JSON.stringify(missing)}, listed but decided or another user's ${JSON.stringify(extra)}`, { rules, response: res });
    check(items.length <= pending.length + expired.length, `${items.length} challenges listed, the caller has ${pending.length} pending (+${expired.length} expired)`, { rules, response: res });
  }
  toString = () => `list(user${this.caller})`;
}

/** Clock steps kept away from the window edge: sums of 70 s stay >= 20 s from 300 s, 310 s jumps past it. */
class AdvanceClockCmd implements fc.AsyncCommand<TdsModel, TdsReal> {
  constructor(readonly long: boolean) {}
  check = () => true;
  async run(m: TdsModel, r: TdsReal) {
    const seconds = this.long ? m.window + 10 : Math.round(m.window * 7 / 30);
    await advanceClock(r.ctx, seconds);
    m.clock += seconds;
  }
  toString = () => `advance(${this.long ? 'past the window' : 'inside the window'})`;
}

export async function threeDsModelRun(ctx: CheckContext): Promise<void> {
  const windowS = ctx.model.limits.three_ds_window?.value;
  if (!windowS) throw new Error('the model has no three_ds_window limit');
  const op = fc.constantFrom<Decision>('approve3ds', 'decline3ds');
  const who = fc.constantFrom(0, 1);
  const cmds = fc.commands(
    [
      who.map((o) => new CreateChallengeCmd(o)),
      fc.tuple(fc.nat(), op, fc.boolean()).map(([p, o, own]) => new DecideCmd(p, o, own)),
      fc.tuple(fc.nat(), op).map(([p, o]) => new DecideCmd(p, o, true)),
      fc.tuple(op, who).map(([o, c]) => new DecideUnknownCmd(o, c)),
      who.map((c) => new ListCmd(c)),
      fc.boolean().map((long) => new AdvanceClockCmd(long)),
    ],
    { maxCommands: 14, size: 'medium' },
  );
  await checkProperty(ctx, fc.asyncProperty(cmds, async (seq) => {
    const setup = async () => {
      const users = [await createUser(ctx), await createUser(ctx)];
      return { model: { clock: 0, window: windowS, challenges: [] } as TdsModel, real: { ctx, users, ids: [] } as TdsReal };
    };
    await fc.asyncModelRun(setup, seq);
  }), { numRuns: runsFor(ctx, 'model') });
}
