// The consistency scenario: nothing acknowledged is lost under load. A concurrent arrival-rate mix of
// creations (users, cards, recipients) records every 2xx creation with what the caller sent; after the
// load phase each one is read back. Acknowledged, then reported absent by an answer read whole, or read
// with another value in a field the caller set (section 2), fails the run. A read-back that could not
// be read (read-back.ts: over the body bound, not JSON, no answer, a server error) is "could not read":
// the run is then inconclusive, never passed and never failed on it. Card writes are spread over
// several users (owners.ts) so that each listCards read-back stays small at any volume. Every reading
// the spec allows is accepted: either name of an alias, fields the read does not show, case of
// addresses and e-mail, and a resource the spec gives no way to read (a recipient without
// profile.operations.getRecipient) is reported unchecked, not lost.

import type { Model, OperationId } from '../model/index.ts';
import { live, liveUser, ONLY_2XX, userHeaders, type LoadRequest, type MixEntry, type Scenario } from './mix.ts';
import { inconclusive } from '../errors/index.ts';
import { cardOwners, ownedWrites } from './owners.ts';
import { ReadBackGate, type ReadBack } from './read-back.ts';
import { newUserBody, operation, type SetupHttp } from './setup.ts';
import { refreshBufferSec } from './tokens.ts';
import type { ConsistencyCounts, ConsistencyResult } from './types.ts';

const MAX_RECORDED = 100_000;
const MAX_PROBLEMS = 20;
/** "could not read" lines kept among the problems (each may stand for a whole list). */
const MAX_UNREADABLE_SHOWN = 5;
const UNREAD = 'could not read:';
const READERS = 8;

interface Written {
  id: string;
  sent: Record<string, unknown>;
  /** The user the write was made for, when the scenario spread it (owners.ts). */
  owner?: string;
}

const same = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** The id a creation answered with: an object's id or user_id (section 2 names), or a bare id string (CreateUserResult). */
function createdId(json: unknown): string | undefined {
  if (typeof json === 'string') return json;
  const o = json as { id?: unknown; user_id?: unknown } | undefined;
  const id = o?.id ?? o?.user_id;
  return typeof id === 'string' ? id : undefined;
}

/** Both names of an alias rule of the model, preferred first. */
const names = (model: Model, id: 'ALIAS-USER-READ-ID' | 'ALIAS-USER-READ-WALLET-ADDRESS' | 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2') => {
  const r = model.aliasRule(id);
  return [r.new, r.old];
};

/** Fields the caller set that the read shows with another value (absent fields are not shown, never wrong). */
function userDiffs(model: Model, w: Written, got: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of names(model, 'ALIAS-USER-READ-ID')) if (got[k] !== undefined && got[k] !== w.id) out.push(`${k} ${JSON.stringify(got[k])} != ${w.id}`);
  const address = names(model, 'ALIAS-USER-CREATE-WALLET-ADDRESS-V2').map((k) => w.sent[k]).find((v) => v !== undefined);
  for (const k of names(model, 'ALIAS-USER-READ-WALLET-ADDRESS')) if (got[k] !== undefined && !same(got[k], address)) out.push(`${k} ${JSON.stringify(got[k])} != sent ${JSON.stringify(address)}`);
  for (const k of ['email', 'country']) if (got[k] !== undefined && w.sent[k] !== undefined && !same(got[k], w.sent[k])) out.push(`${k} ${JSON.stringify(got[k])} != sent ${JSON.stringify(w.sent[k])}`);
  return out;
}

function cardDiffs(w: Written, got: { card_data?: { card_name?: unknown } }): string[] {
  const name = got.card_data?.card_name;
  return name !== undefined && w.sent.card_name !== undefined && name !== w.sent.card_name ? [`card_data.card_name ${JSON.stringify(name)} != sent ${JSON.stringify(w.sent.card_name)}`] : [];
}

function recipientDiffs(w: Written, got: { id?: unknown; personal_info?: Record<string, unknown> }): string[] {
  const out: string[] = [];
  if (got.id !== undefined && got.id !== w.id) out.push(`id ${JSON.stringify(got.id)} != ${w.id}`);
  for (const k of ['first_name', 'last_name']) {
    const v = got.personal_info?.[k];
    if (v !== undefined && w.sent[k] !== undefined && v !== w.sent[k]) out.push(`personal_info.${k} ${JSON.stringify(v)} != sent ${JSON.stringify(w.sent[k])}`);
  }
  return out;
}

/** Runs `f` over `items` with at most `n` at once. */
async function pool<T>(items: T[], n: number, f: (t: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (i < items.length) await f(items[i++]);
  }));
}

/** Whether the target can be asked for `op`: a path the spec shows, or one the profile gives. */
function readable(s: SetupHttp, op: OperationId): boolean {
  try {
    operation(s, op);
    return true;
  } catch {
    return false;
  }
}

const emptyCounts = (): ConsistencyCounts => ({ acknowledged: 0, verified: 0, missing: 0, differs: 0, unreadable: 0, unchecked: 0 });

/** Groups writes by the user they were made for (`owner`, else the scenario's user). */
function byOwner(list: Written[], fallback: string): [string, Written[]][] {
  const m = new Map<string, Written[]>();
  for (const w of list) {
    const k = w.owner ?? fallback;
    (m.get(k) ?? m.set(k, []).get(k)!).push(w);
  }
  return [...m];
}

export async function verifyWrites(s: SetupHttp, model: Model, token: string, userId: string, written: Map<string, Written[]>, unchecked: Map<string, number>): Promise<ConsistencyResult> {
  const by: Record<string, ConsistencyCounts> = {};
  const problems: ConsistencyResult['problems'] = [];
  const notes: string[] = [];
  let unreadableShown = 0;
  const counts = (op: string) => (by[op] ??= emptyCounts());
  // Unread answers keep at most a few lines, so a flood of them never crowds out lost or different writes.
  const problem = (op: string, id: string, p: string) => void (problems.length < MAX_PROBLEMS && problems.push({ op, id, problem: p }));
  const unread = (op: string, id: string, why: string, n = 1) => {
    counts(op).unreadable += n;
    if (unreadableShown++ < MAX_UNREADABLE_SHOWN) problem(op, id, `${UNREAD} ${why}`);
  };
  for (const [op, n] of unchecked) {
    counts(op).acknowledged += n;
    counts(op).unchecked += n;
  }
  const chain = s.profile.chain_id;
  // One gate per read operation: a read that is down (every getUserV1 a 503) does not stop the others.
  const gates = new Map<string, ReadBackGate>();
  const readBack = (op: { method: string; path: string }, path: string, headers: Record<string, string>) => {
    const gate = gates.get(op.path) ?? gates.set(op.path, new ReadBackGate()).get(op.path)!;
    return gate.read(s, op.method, path, headers);
  };
  /** One write against the answer to its own read (getUserV1, getRecipient). */
  const judgeOne = <T>(op: string, w: Written, r: ReadBack, diffs: (w: Written, got: T) => string[], read: string) => {
    const c = counts(op);
    if (r.kind === 'unreadable') return unread(op, w.id, `${read}: ${r.why}`);
    if (r.kind === 'absent') {
      c.missing++;
      return problem(op, w.id, `acknowledged, then ${read} answered HTTP ${r.status}${r.reason ? ` ${r.reason}` : ''}`);
    }
    const d = diffs(w, r.json as T);
    if (d.length) {
      c.differs++;
      problem(op, w.id, `read back different by ${read}: ${d.join('; ')}`);
    } else c.verified++;
  };

  const users = written.get('createUserV2') ?? [];
  counts('createUserV2').acknowledged += users.length;
  const getUser = operation(s, 'getUserV1');
  await pool(users, READERS, async (w) => {
    const r = await readBack(getUser, getUser.path, userHeaders(model, token, w.id, chain));
    judgeOne('createUserV2', w, r, (x, got: Record<string, unknown>) => userDiffs(model, x, got), `getUserV1 (user id ${w.id})`);
  });

  const cards = written.get('createVirtualCard') ?? [];
  const cc = counts('createVirtualCard');
  cc.acknowledged += cards.length;
  if (cards.length) {
    const list = operation(s, 'listCards');
    // One list per owner: the owner's cards are all in it, or the list says nothing.
    await pool(byOwner(cards, userId), READERS, async ([owner, mine]) => {
      const r = await readBack(list, list.path, userHeaders(model, token, owner, chain));
      const read = `listCards (user id ${owner}, ${mine.length} card(s) written)`;
      if (r.kind === 'unreadable') return unread('createVirtualCard', mine[0].id, `${read}: ${r.why}`, mine.length);
      if (r.kind === 'absent') {
        cc.missing += mine.length;
        return problem('createVirtualCard', mine[0].id, `acknowledged, then ${read} answered HTTP ${r.status}${r.reason ? ` ${r.reason}` : ''}`);
      }
      const data = (r.json as { data?: unknown }).data;
      if (!Array.isArray(data)) return unread('createVirtualCard', mine[0].id, `${read}: HTTP ${r.status} with no data array`, mine.length);
      const byId = new Map((data as ({ id?: unknown } | null)[]).filter((c) => c && typeof c.id === 'string').map((c) => [c!.id as string, c!]));
      for (const w of mine) {
        const got = byId.get(w.id);
        if (!got) {
          cc.missing++;
          problem('createVirtualCard', w.id, `acknowledged, then absent from ${read} (HTTP ${r.status}, ${data.length} card(s) listed, read whole)`);
          continue;
        }
        const d = cardDiffs(w, got as { card_data?: { card_name?: unknown } });
        if (d.length) {
          cc.differs++;
          problem('createVirtualCard', w.id, `read back different by ${read}: ${d.join('; ')}`);
        } else cc.verified++;
      }
    });
  }

  const recipients = written.get('createRecipientV2') ?? [];
  const rc = counts('createRecipientV2');
  rc.acknowledged += recipients.length;
  if (recipients.length && readable(s, 'getRecipient')) {
    const get = operation(s, 'getRecipient');
    await pool(recipients, READERS, async (w) => {
      const r = await readBack(get, get.path.replace('{recipient_id}', encodeURIComponent(w.id)), userHeaders(model, token, userId, chain));
      judgeOne('createRecipientV2', w, r, recipientDiffs, `getRecipient ${w.id}`);
    });
  } else if (recipients.length) {
    rc.unchecked += recipients.length;
    notes.push(`${recipients.length} recipient(s) acknowledged but not read back: the spec does not show the path of getRecipient (section 4); give it in profile.operations.getRecipient`);
  }
  return { by_operation: by, problems, notes };
}

let seq = 0;

export const consistencyScenario: Scenario = {
  id: 'consistency',
  describe: 'Concurrent creations (users, cards, recipients) at an arrival rate; every 2xx creation is read back after the load: any acknowledged write lost or read back different fails the run, one that could not be read makes it inconclusive',
  ...ONLY_2XX,
  defaultArrivalRate: 50,
  async setup(s) {
    const { tokens, userId, user, agnostic } = await liveUser(s);
    const owners = cardOwners(s, tokens, userId);
    const mix: MixEntry[] = [
      live(s, tokens, 'createUserV2', 4, agnostic, () => newUserBody(s.model)),
      ownedWrites(s, tokens, 'createVirtualCard', 3, owners, () => ({ card_name: `consistency ${++seq}` })),
      live(s, tokens, 'createRecipientV2', 3, user, () => ({ type: 'Sepa', first_name: 'Load', last_name: `Consistency${++seq}`, is_business: false, sepa: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } })),
    ];
    const written = new Map<string, Written[]>();
    const unchecked = new Map<string, number>();
    let recorded = 0;
    return {
      mix,
      secrets: tokens.issued,
      tokens,
      sends: `createUserV2 40%, createVirtualCard 30% (spread over users, at most about ${owners.cap} cards each), createRecipientV2 30%, each 2xx read back after the load (getUserV1, listCards per card owner, getRecipient); S2S token refreshed ${refreshBufferSec(s.model)} s before expires_at`,
      observeOps: mix.map((m) => m.op),
      observe(req: LoadRequest, _status: number, body: string) {
        let json: unknown;
        let sent: Record<string, unknown> = {};
        try {
          json = JSON.parse(body);
          sent = JSON.parse(req.body ?? '{}');
        } catch {
          json = undefined;
        }
        const id = createdId(json);
        if (!id || recorded >= MAX_RECORDED) {
          unchecked.set(req.op, (unchecked.get(req.op) ?? 0) + 1);
          return;
        }
        recorded++;
        let list = written.get(req.op);
        if (!list) written.set(req.op, (list = []));
        list.push({ id, sent, ...(req.owner ? { owner: req.owner } : {}) });
      },
      async verify() {
        await owners.settle();
        const result = await verifyWrites(s, s.model, tokens.token(), userId, written, unchecked);
        const { owners: n, largest } = owners.stats();
        if (n > 1) result.notes.push(`cards were spread over ${n} users (at most ${largest} each) so that each listCards read-back stays small`);
        if (owners.problem) result.notes.push(owners.problem);
        return result;
      },
    };
  },
};

/** Sums the consistency results of several runs (shards: each read back its own writes). */
export function mergeConsistency(list: ConsistencyResult[]): ConsistencyResult | undefined {
  if (!list.length) return undefined;
  const out: ConsistencyResult = { by_operation: {}, problems: [], notes: [...new Set(list.flatMap((c) => c.notes))] };
  for (const c of list) {
    for (const [op, n] of Object.entries(c.by_operation)) {
      const o = (out.by_operation[op] ??= emptyCounts());
      // unreadable is absent from results written before it existed (load-result version 3).
      for (const k of ['acknowledged', 'verified', 'missing', 'differs', 'unreadable', 'unchecked'] as const) o[k] += n[k] ?? 0;
    }
    for (const p of c.problems) if (out.problems.length < MAX_PROBLEMS) out.problems.push(p);
  }
  return out;
}

const total = (c: ConsistencyResult, k: keyof ConsistencyCounts) => Object.values(c.by_operation).reduce((n, x) => n + (x[k] ?? 0), 0);
const perOp = (c: ConsistencyResult, k: keyof ConsistencyCounts) => Object.entries(c.by_operation).filter(([, x]) => x[k]).map(([op, x]) => `${op} ${x[k]}`).join(', ');

/** Verdict reasons that fail the run: writes lost or read back different. */
export function consistencyReasons(c: ConsistencyResult): string[] {
  const reasons: string[] = [];
  const missing = total(c, 'missing');
  const differs = total(c, 'differs');
  if (missing) reasons.push(`consistency: ${missing} of ${total(c, 'acknowledged')} acknowledged write(s) lost: acknowledged with 2xx, then reported absent by an answer read whole (${perOp(c, 'missing')}); first: ${c.problems.find((p) => /acknowledged, then/.test(p.problem))?.problem ?? ''}`);
  if (differs) reasons.push(`consistency: ${differs} acknowledged write(s) read back with other values than the caller set (${perOp(c, 'differs')}); first: ${c.problems.find((p) => /read back different/.test(p.problem))?.problem ?? ''}`);
  return reasons;
}

/** Why the read-back judged (part of) nothing: nothing acknowledged, or answers that could not be read. Never a pass. */
export function consistencyUnjudged(c: ConsistencyResult): string[] {
  const out: string[] = [];
  if (total(c, 'acknowledged') === 0) out.push(inconclusive('the consistency read-back', 'no creation was acknowledged (2xx), so nothing could be read back'));
  const unread = total(c, 'unreadable');
  if (unread) out.push(inconclusive(`the consistency read-back of ${unread} of ${total(c, 'acknowledged')} acknowledged write(s)`, `their read-back could not be read (${perOp(c, 'unreadable')}); first: ${c.problems.find((p) => p.problem.startsWith(UNREAD))?.problem ?? ''}`));
  return out;
}
