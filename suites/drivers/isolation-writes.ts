// Company isolation on user-scoped WRITES (AUTH-COMPANY-ISOLATION; section 7 S2S row "Requested user was
// not found: user absent or in another company"). Each write is sent twice with the same body: first with
// client 1's token and client 2's user (must be refused), then as client 2 itself. When client 2's own
// call succeeds the body was valid, so the other company was the only fault of the first call, which
// must then be exactly that row. When it is refused too, the body's validity is unknown (payloads are
// mostly not shown) and only the refusal is required. The cross call comes first so a refusal leaves the
// user as it was for the second.

import { isPrerequisiteFailed } from '../../src/checks/prerequisite.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { OperationId, RuleId } from '../../src/model/types.ts';
import {
  CheckFailure, IDENTITY_KINDS, expectOneOfErrors, type IdentityKind, controlRaw, create3ds, createUser, expectError, expectNot2xx, hasControl,
  identityHeader, is2xx, opLabel, requestBody, rnd, sepaStates, setPrimaryWallet, setSepaStatus, userHeaders, field, type TestUser,
} from '../kit/index.ts';
import { tokenize } from './transfers.ts';

const RULES: RuleId[] = ['AUTH-COMPANY-ISOLATION'];
/** Card actions tried on a card of client 2's user; close last, so the others act on a live card. */
const CARD_ACTIONS: OperationId[] = ['blockCard', 'unblockCard', 'activateCard', 'closeCard'];

interface Probe {
  op: OperationId;
  body?: Record<string, unknown>;
  params?: Record<string, string>;
  /** Section 7 other rule 1: a 3DS lookup scoped to the caller answers its own 400 ErrorNotFound row. */
  threeDs?: true;
}

/** payment_details of a recipient answer: an object or an array (section 2); the first one's id. */
function paymentDetailsId(json: unknown): string | undefined {
  const pd = field(json, 'payment_details');
  const id = field(Array.isArray(pd) ? pd[0] : pd, 'id');
  return id === undefined || id === null ? undefined : String(id);
}

/**
 * The parts of the walk, listed in the order they ran one after another. Each numbers its probes
 * locally; its first turn (which identity header kind the probe uses, in rotation) is the count of
 * the probes of the parts before it, known as soon as each of them knows how many it sends
 * (`close`), so the kinds are the ones the sequential walk gave.
 */
export class Parts {
  private readonly bases: Promise<number>[] = [Promise.resolve(0)];
  private readonly closers: ((n: number) => void)[] = [];
  private readonly counts: number[] = [];
  constructor(n: number) {
    for (let i = 0; i < n; i++) {
      const count = new Promise<number>((r) => (this.closers[i] = r));
      this.bases.push(this.bases[i].then((b) => count.then((c) => b + c)));
      this.counts.push(0);
    }
  }

  /** Part i's first turn, once every part before it is closed. */
  base(i: number): Promise<number> {
    return this.bases[i];
  }

  /** Part i's next local index (taken when the probe is called, before any wait). */
  take(i: number): number {
    return this.counts[i]++;
  }

  /** Part i sends `more` probes beyond those taken so far, and no others. Idempotent. */
  close(i: number, more = 0): void {
    this.closers[i](this.counts[i] + more);
  }
}

/**
 * Tries every user-scoped write (non-GET) that moves no money and has a path (shown by the spec, or given
 * by the profile) on a fresh user of client 2, with client 1's token. Operations whose path parameters
 * this cannot fill are logged, not tried.
 *
 * The writes of different parts act on different objects of that user (its XRPL account, a card, a Card
 * recipient, the SEPA account, a 3DS challenge each), so the parts go out at once; the steps of one part
 * (a card's actions, the SEPA activation) stay in order, and the first failure in the listed order is
 * reported, the one the sequential walk met first.
 */
export async function isolationOnWrites(ctx: CheckContext): Promise<void> {
  const theirs = await createUser(ctx, { client: 1 });
  const tried = new Set<OperationId>();
  const notJudged: [string, string][][] = [];
  const has = (op: OperationId) => !ctx.model.operation(op).pathUnspecified || Boolean(ctx.profile.operations[op]);
  const probeAs = (parts: Parts, i: number) => async (p: Probe): Promise<HttpResponse> => {
    tried.add(p.op);
    const local = parts.take(i);
    const kind: IdentityKind = IDENTITY_KINDS[((await parts.base(i)) + local) % IDENTITY_KINDS.length];
    return probeWrite(ctx, theirs, p, kind);
  };
  const now = Math.floor(Date.now() / 1000);
  const single = (p: Probe) => async (probe: (p: Probe) => Promise<HttpResponse>, close: (more?: number) => void) => {
    close(1);
    await probe(p);
  };
  const bodies: ((probe: (p: Probe) => Promise<HttpResponse>, close: (more?: number) => void, cannot: (what: string, missing: string) => void) => Promise<void>)[] = [
    single({ op: 'validateRetailUser' }),
    single({ op: 'createXrplAccount', body: requestBody(ctx, 'createXrplAccount', {}) }),
    single({ op: 'estimateFx', body: requestBody(ctx, 'estimateFx', {}, { destination_address: rnd.address() }) }),
    single({ op: 'getFullStatement', body: requestBody(ctx, 'getFullStatement', { start: now - 86400, end: now + 60, user_address: theirs.address }) }),
    async (probe, close) => {
      const card = await probe({ op: 'createVirtualCard', body: requestBody(ctx, 'createVirtualCard', { card_name: `iso ${rnd.hex(3)}` }) });
      const cardId = field(card.json, 'id');
      const actions = CARD_ACTIONS.filter(has);
      if (cardId === undefined || cardId === null) {
        close();
        for (const op of actions) ctx.log(`${op} not tried: client 2's card creation answered no card id`);
        return;
      }
      close(actions.length);
      for (const op of actions) await probe({ op, params: { card_id: String(cardId) } });
    },
    async (probe, close, cannot) => {
      // Push to Card steps 2-3 (section 4 rule 3) with a real card token, when the tokenization environment is set.
      // Only these steps need the card: a tokenization that cannot run leaves them out, not the whole check.
      const tokenized = ctx.profile.pci_url ? await tokenize(ctx).catch((err: unknown) => {
        if (!isPrerequisiteFailed(err)) throw err;
        cannot("a Card recipient and a card transfer estimate for another company's user are refused", `card tokenization (${err.setting ?? err.operation}): ${err.message}`);
        return undefined;
      }) : undefined;
      if (!tokenized) {
        close();
        // Without it the rule is judged only in part: coverage does not count it (src/runner/coverage.ts).
        cannot(`Push to Card steps 2-3 (${opLabel(ctx, 'createRecipientV2')}, ${opLabel(ctx, 'estimateCardTransfer')}) for another company's user are refused`, 'profile.pci_url (the card-tokenization environment)');
        return;
      }
      const rec = await probe({ op: 'createRecipientV2', body: requestBody(ctx, 'createRecipientV2', { type: 'Card', first_name: 'Ada', last_name: 'Lovelace', is_business: false }, { card_token: tokenized.token }) });
      const pd = paymentDetailsId(rec.json);
      if (!pd) return close();
      // Planned before it is sent, so the walk of the other writes below does not take it up again.
      tried.add('estimateCardTransfer');
      close(1);
      const recipientId = field(rec.json, 'id');
      await probe({ op: 'estimateCardTransfer', body: requestBody(ctx, 'estimateCardTransfer', { amount: '10.00', currency: 'EUR' }, { ...(recipientId ? { recipient_id: recipientId } : {}), payment_details_id: pd }) });
    },
    async (probe, close) => {
      // The wallet-linking path in the state where it can succeed (control), then direct activation from the start.
      for (const op of ['initBankAccount', 'completeBankAccount', 'createBankAccount'] as const) tried.add(op);
      close(3);
      const S = sepaStates(ctx);
      const canSet = hasControl(ctx, 'setSepaCapabilityStatus') && hasControl(ctx, 'setPrimaryWallet');
      if (canSet) {
        await setPrimaryWallet(ctx, theirs, true);
        await setSepaStatus(ctx, theirs, S.verificationRequired);
      }
      const init = await probe({ op: 'initBankAccount', body: { chain: ctx.profile.chain_id } });
      const challenge = field(init.json, 'challenge');
      let signed = `0x${'0'.repeat(130)}`;
      if (typeof challenge === 'string' && hasControl(ctx, 'signChallenge')) {
        const s = await controlRaw(ctx, 'signChallenge', { params: { user_id: theirs.id }, body: { challenge } });
        if (s.ok && typeof s.json?.signed_challenge === 'string') signed = s.json.signed_challenge;
      }
      await probe({ op: 'completeBankAccount', body: { chain: ctx.profile.chain_id, signed_challenge: signed } });
      if (canSet) await setSepaStatus(ctx, theirs, S.notStarted);
      await probe({ op: 'createBankAccount', body: { account_type: 'Sepa' } });
    },
    // 3DS decisions on a challenge of client 2's user (control creates it), one challenge each.
    ...(['approve3ds', 'decline3ds'] as const).map((op) => async (probe: (p: Probe) => Promise<HttpResponse>, close: (more?: number) => void) => {
      if (!hasControl(ctx, 'create3dsChallenge') || !has(op)) return close();
      tried.add(op);
      close(1);
      const { transaction_id } = await create3ds(ctx, theirs);
      await probe({ op, params: { transaction_id }, threeDs: true });
    }),
    async (_probe, close, cannot) => {
      if (!hasControl(ctx, 'create3dsChallenge') && (has('approve3ds') || has('decline3ds'))) cannot("3DS decisions on a challenge of another company's user are refused", 'control operation create3dsChallenge');
      close();
    },
  ];
  // Any other write with a path: the profile's template over an empty body (its payload is not shown).
  // Its list is known once every part above has planned its writes (their turns come first).
  const parts = new Parts(bodies.length + 1);
  const other = bodies.length;
  bodies.push(async (probe, close) => {
    await parts.base(other);
    const rest: OperationId[] = [];
    for (const o of ctx.model.operations.values()) {
      if (!o.userScoped || o.server !== 'api' || o.movesMoney || o.method.toLowerCase() === 'get' || o.operationId === 'authorizeUser') continue;
      if (tried.has(o.operationId) || !has(o.operationId)) continue;
      if (/\{\w+\}/.test(o.path)) {
        ctx.log(`${o.operationId} not tried for isolation: its path parameters name objects this check does not create`);
        continue;
      }
      rest.push(o.operationId);
    }
    close(rest.length);
    for (const op of rest) await probe({ op, body: requestBody(ctx, op, {}) });
  });
  const settled = await Promise.allSettled(bodies.map(async (body, i) => {
    const cannot: [string, string][] = (notJudged[i] = []);
    try {
      await body(probeAs(parts, i), (more = 0) => parts.close(i, more), (what, missing) => cannot.push([what, missing]));
    } finally {
      // A part that failed early sends nothing more: the parts after it are not held up.
      parts.close(i);
    }
  }));
  // What could not be judged is recorded up to the first failure, as the sequential walk recorded it.
  for (const [i, s] of settled.entries()) {
    for (const [what, missing] of notJudged[i] ?? []) ctx.couldNotJudge(what, missing);
    if (s.status === 'rejected') throw s.reason;
  }
}

/**
 * One write twice with the same body: with client 1's token and client 2's user by `kind` (refused),
 * then as client 2 itself. When client 2's own call succeeds, the cross call must be exactly the row.
 */
async function probeWrite(ctx: CheckContext, theirs: TestUser, p: Probe, kind: IdentityKind): Promise<HttpResponse> {
  const o = ctx.model.operation(p.op);
  const where = `${o.method.toUpperCase()} ${o.path} (${p.op}) with client 1's token and client 2's user by ${identityHeader(ctx, kind)}`;
  const cross = await ctx.http.send({ op: p.op, params: p.params, body: p.body, headers: await userHeaders(ctx, { ...theirs, client: 0 }, kind) });
  expectNot2xx(cross, where, RULES);
  const own = await ctx.http.send({ op: p.op, params: p.params, body: p.body, headers: await userHeaders(ctx, theirs, kind) });
  if (!is2xx(own)) {
    ctx.log(`${p.op}: client 2's own call with the same body answered HTTP ${own.status}, so the body may be invalid: only the refusal of the cross-company call is required`);
    return own;
  }
  try {
    if (p.threeDs) expectOneOfErrors(ctx, cross, ['ERR-S2S-USER-NOT-FOUND', 'ERR-3DS-NOT-FOUND'], RULES);
    else expectError(ctx, cross, 'ERR-S2S-USER-NOT-FOUND', RULES);
  } catch (err) {
    throw err instanceof CheckFailure ? new CheckFailure(`${where} (the same body succeeds for client 2 itself, so the company is the only fault): ${err.message}`, { rules: RULES, response: cross }) : err;
  }
  return own;
}
