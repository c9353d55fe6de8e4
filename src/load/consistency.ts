// The consistency scenario: nothing acknowledged is lost under load. A concurrent arrival-rate mix of
// creations (users, cards, recipients) records every 2xx creation with what the caller sent; after the
// load phase each one is read back. Acknowledged but unreadable, or read with another value in a field
// the caller set (section 2), fails the run. Every reading the spec allows is accepted: either name of
// an alias, fields the read does not show, case of addresses and e-mail, and a resource the spec gives
// no way to read (a recipient without profile.operations.getRecipient) is reported unchecked, not lost.

import type { Model, OperationId } from '../model/index.ts';
import { live, liveUser, ONLY_2XX, userHeaders, type LoadRequest, type MixEntry, type Scenario } from './mix.ts';
import { newUserBody, operation, send, type SetupHttp } from './setup.ts';
import { refreshBufferSec } from './tokens.ts';
import type { ConsistencyCounts, ConsistencyResult } from './types.ts';

const MAX_RECORDED = 100_000;
const MAX_PROBLEMS = 20;
const READERS = 8;

interface Written {
  id: string;
  sent: Record<string, unknown>;
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

export async function verifyWrites(s: SetupHttp, model: Model, token: string, userId: string, written: Map<string, Written[]>, unchecked: Map<string, number>): Promise<ConsistencyResult> {
  const by: Record<string, ConsistencyCounts> = {};
  const problems: ConsistencyResult['problems'] = [];
  const notes: string[] = [];
  const counts = (op: string) => (by[op] ??= { acknowledged: 0, verified: 0, missing: 0, differs: 0, unchecked: 0 });
  const problem = (op: string, id: string, p: string) => void (problems.length < MAX_PROBLEMS && problems.push({ op, id, problem: p }));
  for (const [op, n] of unchecked) {
    counts(op).acknowledged += n;
    counts(op).unchecked += n;
  }
  const chain = s.profile.chain_id;
  // The read-back body is the operation's JSON answer (an object on 2xx); `diffs` reads the fields it compares.
  const judge = <T>(op: string, w: Written, status: number, json: unknown, diffs: (w: Written, got: T) => string[], read: string) => {
    const c = counts(op);
    if (!(status >= 200 && status < 300) || json === undefined || json === null) {
      c.missing++;
      const reason = (json as { error_reason?: unknown } | null | undefined)?.error_reason;
      problem(op, w.id, `acknowledged, then ${read} answered HTTP ${status}${reason ? ` ${String(reason)}` : ''}`);
      return;
    }
    const d = diffs(w, json as T);
    if (d.length) {
      c.differs++;
      problem(op, w.id, `read back different by ${read}: ${d.join('; ')}`);
    } else c.verified++;
  };

  const users = written.get('createUserV2') ?? [];
  counts('createUserV2').acknowledged += users.length;
  const getUser = operation(s, 'getUserV1');
  await pool(users, READERS, async (w) => {
    const r = await send(s, getUser.method, getUser.path, userHeaders(model, token, w.id, chain));
    judge('createUserV2', w, r.status, r.json, (x, got: Record<string, unknown>) => userDiffs(model, x, got), `getUserV1 (user id ${w.id})`);
  });

  const cards = written.get('createVirtualCard') ?? [];
  counts('createVirtualCard').acknowledged += cards.length;
  if (cards.length) {
    const list = operation(s, 'listCards');
    const r = await send(s, list.method, list.path, userHeaders(model, token, userId, chain));
    const listedData = (r.json as { data?: unknown } | null | undefined)?.data;
    const data: ({ id?: unknown } | null)[] = Array.isArray(listedData) ? listedData : [];
    const byId = new Map(data.filter((c) => c && typeof c.id === 'string').map((c) => [c!.id as string, c]));
    const listed = r.status >= 200 && r.status < 300;
    for (const w of cards) {
      if (listed && !byId.has(w.id)) {
        counts('createVirtualCard').missing++;
        problem('createVirtualCard', w.id, `acknowledged, then absent from listCards (HTTP ${r.status}, ${data.length} card(s) listed)`);
      } else judge('createVirtualCard', w, r.status, byId.get(w.id) ?? r.json, cardDiffs, 'listCards');
    }
  }

  const recipients = written.get('createRecipientV2') ?? [];
  const rc = counts('createRecipientV2');
  rc.acknowledged += recipients.length;
  if (recipients.length && readable(s, 'getRecipient')) {
    const get = operation(s, 'getRecipient');
    await pool(recipients, READERS, async (w) => {
      const r = await send(s, get.method, get.path.replace('{recipient_id}', encodeURIComponent(w.id)), userHeaders(model, token, userId, chain));
      judge('createRecipientV2', w, r.status, r.json, recipientDiffs, `getRecipient ${w.id}`);
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
  describe: 'Concurrent creations (users, cards, recipients) at an arrival rate; every 2xx creation is read back after the load, and any acknowledged write lost or read back different fails the run',
  ...ONLY_2XX,
  defaultArrivalRate: 50,
  async setup(s) {
    const { tokens, userId, user, agnostic } = await liveUser(s);
    const mix: MixEntry[] = [
      live(s, tokens, 'createUserV2', 4, agnostic, () => newUserBody(s.model)),
      live(s, tokens, 'createVirtualCard', 3, user, () => ({ card_name: `consistency ${++seq}` })),
      live(s, tokens, 'createRecipientV2', 3, user, () => ({ type: 'Sepa', first_name: 'Load', last_name: `Consistency${++seq}`, is_business: false, sepa: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } })),
    ];
    const written = new Map<string, Written[]>();
    const unchecked = new Map<string, number>();
    let recorded = 0;
    return {
      mix,
      secrets: tokens.issued,
      tokens,
      sends: `createUserV2 40%, createVirtualCard 30%, createRecipientV2 30%, each 2xx read back after the load (getUserV1, listCards, getRecipient); S2S token refreshed ${refreshBufferSec(s.model)} s before expires_at`,
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
        list.push({ id, sent });
      },
      verify: () => verifyWrites(s, s.model, tokens.token(), userId, written, unchecked),
    };
  },
};

/** Sums the consistency results of several runs (shards: each read back its own writes). */
export function mergeConsistency(list: ConsistencyResult[]): ConsistencyResult | undefined {
  if (!list.length) return undefined;
  const out: ConsistencyResult = { by_operation: {}, problems: [], notes: [...new Set(list.flatMap((c) => c.notes))] };
  for (const c of list) {
    for (const [op, n] of Object.entries(c.by_operation)) {
      const o = (out.by_operation[op] ??= { acknowledged: 0, verified: 0, missing: 0, differs: 0, unchecked: 0 });
      for (const k of ['acknowledged', 'verified', 'missing', 'differs', 'unchecked'] as const) o[k] += n[k];
    }
    for (const p of c.problems) if (out.problems.length < MAX_PROBLEMS) out.problems.push(p);
  }
  return out;
}

/** Verdict reasons: lost or different writes, or nothing acknowledged to verify. */
export function consistencyReasons(c: ConsistencyResult): string[] {
  const all = Object.values(c.by_operation);
  const sum = (k: keyof ConsistencyCounts) => all.reduce((n, x) => n + x[k], 0);
  const reasons: string[] = [];
  if (sum('acknowledged') === 0) reasons.push('consistency: no creation was acknowledged (2xx), so nothing could be read back');
  const per = (k: 'missing' | 'differs') => Object.entries(c.by_operation).filter(([, x]) => x[k]).map(([op, x]) => `${op} ${x[k]}`).join(', ');
  if (sum('missing')) reasons.push(`consistency: ${sum('missing')} of ${sum('acknowledged')} acknowledged write(s) lost: acknowledged with 2xx, then not readable (${per('missing')}); first: ${c.problems.find((p) => /acknowledged, then/.test(p.problem))?.problem ?? ''}`);
  if (sum('differs')) reasons.push(`consistency: ${sum('differs')} acknowledged write(s) read back with other values than the caller set (${per('differs')}); first: ${c.problems.find((p) => /read back different/.test(p.problem))?.problem ?? ''}`);
  return reasons;
}
