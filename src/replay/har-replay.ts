// `replay run.har`: re-sends recorded requests to a target and compares the answers with the
// recorded ones (status, body structure with ids and timestamps normalised). The HAR holds no
// secret (tokens and client secrets were masked when it was written), so every token is minted
// fresh from the profile; a recorded token is never sent. Writes (operations the model marks as
// creating state or moving money; any non-GET request the model does not know) are refused unless
// allowWrites: a replay must not open accounts or move money by surprise.

import { readInputFile } from '../input/index.ts';
import { describeErrors, validatorFor } from '../baseline/schemas.ts';
import { HttpSession } from '../client/index.ts';
import { tokenRequest } from '../client/credentials.ts';
import { operationAuthHeaders, operationAuthOf } from '../client/operation-auth.ts';
import { CancelledError, ConfigError, CredentialsError } from '../errors/index.ts';
import type { Model, Operation } from '../model/types.ts';
import { MASK, type ResolvedProfile } from '../profile/index.ts';
import { operationAtUrl } from '../client/operation-location.ts';
import type { Har, HarEntry } from '../report/har.ts';
import { shapeDiff } from './shape.ts';

/** Headers the client sets itself, or that named the recorded attempt only. */
const NOT_REPLAYED = new Set(['user-agent', 'accept-encoding', 'content-length', 'host', 'connection', 'traceparent', 'x-request-id']);
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface ReplayOutcome {
  /** 1-based entry number in the HAR. */
  entry: number;
  check?: string;
  method: string;
  path: string;
  operation?: string;
  /** replayed: sent and compared; refused: a write without allowWrites; skipped: cannot be replayed faithfully. */
  status: 'replayed' | 'refused' | 'skipped';
  reason?: string;
  recordedStatus?: number;
  newStatus?: number;
  differences: string[];
  /** What the replay changed to send the request (e.g. another client's credentials). */
  notes?: string[];
}

export interface HarReplayOptions {
  profile: ResolvedProfile;
  model: Model;
  /** 1-based entry numbers; all entries when absent. */
  entries?: number[];
  allowWrites?: boolean;
  timeoutBudgetMs?: number;
  /** Aborted: no further entry is sent, the one in flight is abandoned, and replayHar throws CancelledError. */
  signal?: AbortSignal;
}

export async function loadHar(file: string): Promise<Har> {
  const { value: doc } = await readInputFile(file, { what: 'HAR', format: 'json' });
  const validate = validatorFor('har.schema.json');
  if (!validate(doc)) throw new ConfigError(`${file} is not HAR 1.2: ${describeErrors(validate.errors)}`);
  return doc as Har;
}

/** Whether replaying the request could create state or move money. */
export function isWrite(method: string, op: Operation | undefined): boolean {
  return op ? op.mutates || op.movesMoney : !SAFE_METHODS.has(method.toUpperCase());
}

function jsonOf(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
  if (text === undefined || text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export async function replayHar(har: Har, opts: HarReplayOptions): Promise<ReplayOutcome[]> {
  const { profile, model } = opts;
  const all = har.log.entries.map((e, i) => ({ e, n: i + 1 }));
  for (const n of opts.entries ?? []) if (n < 1 || n > all.length) throw new ConfigError(`--entry ${n}: the HAR has entries 1..${all.length}`);
  const picked = opts.entries?.length ? all.filter(({ n }) => opts.entries!.includes(n)) : all;
  const session = new HttpSession({ profile, model, ...(opts.timeoutBudgetMs ? { timeoutBudgetMs: opts.timeoutBudgetMs } : {}) });
  const http = session.client('replay', opts.signal ? { signal: opts.signal } : {});
  const tokens = new Map<number, string>();
  // clients[0] for recorded S2S calls; another client only when profile.operation_auth names it.
  const s2s = async (i = 0): Promise<string> => {
    const held = tokens.get(i);
    if (held) return held;
    const client = profile.clients[i];
    if (!client?.client_id || !client.client_secret) throw new CredentialsError(`replay: the profile has no clients[${i}] credentials to mint a fresh token with`);
    const res = await http.send({ op: 'createToken', body: tokenRequest(model, client).body });
    const t = (res.json as { access_token?: unknown } | undefined)?.access_token;
    if (res.status !== 200 || typeof t !== 'string') throw new CredentialsError(`replay: the target did not issue a token for clients[${i}] (HTTP ${res.status})`);
    tokens.set(i, t);
    return t;
  };
  const out: ReplayOutcome[] = [];
  try {
    for (const { e, n } of picked) {
      if (opts.signal?.aborted) break;
      // An answer cut short by the abort is not a difference: it is left out, like the entries after it.
      const outcome = await replayOne(e, n, { ...opts, http, s2s, mask: (t) => session.mask(t) }).catch((err: unknown) => {
        if (opts.signal?.aborted) return undefined;
        throw err;
      });
      if (!outcome || opts.signal?.aborted) break;
      out.push(outcome);
    }
    if (opts.signal?.aborted) throw new CancelledError(`replay cancelled: ${out.length} of ${picked.length} entries were replayed, none is printed; rerun it, or only some entries (--entry)`);
  } finally {
    await session.close();
  }
  return out;
}

interface Ctx extends HarReplayOptions {
  http: ReturnType<HttpSession['client']>;
  s2s: (client?: number) => Promise<string>;
  /** The answers carry fresh tokens: everything printed is masked as the recording was. */
  mask: (text: string) => string;
}

async function replayOne(e: HarEntry, n: number, ctx: Ctx): Promise<ReplayOutcome> {
  const url = new URL(e.request.url);
  const id = operationAtUrl(ctx.model, ctx.profile)(e.request.method, e.request.url);
  const op = id ? ctx.model.operations.get(id) : undefined;
  const base: ReplayOutcome = {
    entry: n,
    ...(e._check ? { check: e._check } : {}),
    method: e.request.method,
    path: url.pathname + url.search,
    ...(op ? { operation: op.operationId } : {}),
    status: 'skipped',
    differences: [],
    ...(e.response.status ? { recordedStatus: e.response.status } : {}),
  };
  if (isWrite(e.request.method, op) && !ctx.allowWrites) return { ...base, status: 'refused', reason: `a write (${op ? `${op.operationId} creates state or moves money` : 'not a GET'}): pass --allow-writes to send it` };
  const headers: Record<string, string> = {};
  const notes: string[] = [];
  // The spec does not show how this operation authenticates: this profile's operation_auth says, not the recording.
  const auth = op ? operationAuthOf(ctx.model, ctx.profile, op.operationId) : undefined;
  if (auth) {
    if (auth.mode === 'user') return { ...base, reason: `profile.operation_auth.${op!.operationId} sends a user token, whose user the HAR does not hold` };
    Object.assign(headers, await operationAuthHeaders(ctx.model, ctx.profile, auth, { s2s: (i) => ctx.s2s(i), user: () => Promise.reject(new Error('not reached')) }));
    notes.push(`credentials from profile.operation_auth.${op!.operationId} (mode ${auth.mode})${ctx.profile.operation_auth?.[op!.operationId] ? '' : ': not set, so none'}`);
  }
  for (const { name, value } of e.request.headers) {
    const k = name.toLowerCase();
    if (NOT_REPLAYED.has(k)) continue;
    // The recorded credentials of such an operation are the recording's (masked): replaced above.
    if (auth && (k === 'authorization' || value.includes(MASK) || Object.keys(headers).some((h) => h.toLowerCase() === k))) continue;
    if (k === 'authorization' && value.includes(MASK)) {
      // A user-scoped call without an identity header was made with a user token: its user is not in the file.
      const identity = ctx.model.auth.identity_headers.some((h) => e.request.headers.some((r) => r.name.toLowerCase() === h.toLowerCase()));
      if (op?.userScoped && !identity) return { ...base, reason: 'sent with a user token, whose user the HAR does not hold' };
      headers[k] = value.replace(MASK, await ctx.s2s());
    } else if (value.includes(MASK)) return { ...base, reason: `header ${name} is masked in the HAR` };
    else headers[k] = value;
  }
  const body = credentialsIn(e.request.postData?.text, ctx.profile, notes);
  if (body?.includes(MASK)) return { ...base, reason: 'the request body is masked in the HAR' };
  // The recorded origin is the recording's target; the replay goes to this profile's base URL (its
  // pci_url for a card-tokenization operation).
  const server = op?.server === 'pci' ? ctx.profile.pci_url : ctx.profile.base_url;
  if (!server) return { ...base, reason: 'a card-tokenization call: the profile has no pci_url' };
  // A base URL with a path prefix keeps it (added unless the recorded path already starts with it).
  const prefix = new URL(server).pathname.replace(/\/$/, '');
  const target = new URL((url.pathname.startsWith(`${prefix}/`) ? '' : prefix) + url.pathname + url.search, server).href;
  let res;
  try {
    res = await ctx.http.send({ method: e.request.method, path: target, headers, ...(body !== undefined ? { rawBody: body } : {}), noRetry: e.response.status === 429 });
  } catch (err) {
    return { ...base, status: 'replayed', differences: [`no answer now: ${ctx.mask((err as Error).message)}`] };
  }
  const differences: string[] = [];
  if (res.status !== e.response.status) differences.push(`status: ${e.response.status || 'no answer'} in the recording, ${res.status} now`);
  const [a, b] = [jsonOf(e.response.content.text), jsonOf(ctx.mask(res.text))];
  if (e.response.content.comment?.includes('truncated')) differences.push('(body not compared: truncated in the recording)');
  else if (a.ok && b.ok) differences.push(...shapeDiff(a.value, b.value));
  else if (a.ok !== b.ok) differences.push(`body: ${a.ok ? 'JSON' : 'not JSON'} in the recording, ${b.ok ? 'JSON' : 'not JSON'} now`);
  return { ...base, status: 'replayed', newStatus: res.status, differences, ...(notes.length ? { notes } : {}) };
}

/**
 * A token request's masked client_secret, filled in from the profile: the secret of the client the
 * recording named when this profile has it, else clients[0] (id and secret: the recording's client
 * belongs to another target). Noted, since a check that sent an unknown client on purpose changes meaning.
 */
function credentialsIn(body: string | undefined, profile: ResolvedProfile, notes: string[]): string | undefined {
  if (body === undefined || !body.includes(`"client_secret":"${MASK}"`)) return body;
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return body;
  }
  const known = [...profile.clients, ...Object.values(profile.special_clients ?? {})].find((c) => c?.client_id === doc.client_id);
  const client = known ?? profile.clients[0];
  if (!client?.client_secret) return body;
  if (!known) notes.push(`client ${String(doc.client_id)} is not in this profile: sent as clients[0]`);
  return JSON.stringify({ ...doc, client_id: client.client_id, client_secret: client.client_secret });
}
