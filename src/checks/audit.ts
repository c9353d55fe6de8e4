// Every response a check receives is held to the rules that hold for every answer, not only the
// responses the check asserts on: an intermittent fault (a wrong category on one error in five, a
// malformed body on some reads) shows up in whichever check happens to receive it. Applied by the
// runner when a check body ends without a failure of its own, and also when it fails: a check that
// fails on its own rule still reports the bad answer under the audit's rule (withAudit), so an
// intermittent fault that lands in a failing check is not hidden behind that check's failure.

import type { CheckFailureInfo } from '../events/index.ts';
import type { Model, OperationId } from '../model/types.ts';
import { namingCheck, namingFactsOf } from './naming.ts';
import { CheckFailure } from './signals.ts';
import type { HttpResponse } from './types.ts';

/**
 * A failure found by the audit: it names a rule that holds for every answer (body shape, category,
 * operation schema), which the check need not cover; the runner keeps that rule as named.
 */
export class AuditFailure extends CheckFailure {
  readonly audit = true;
}

/** A response the client received for an operation of the model. */
export interface ObservedResponse {
  op: string;
  res: HttpResponse;
}

/** The statuses section 7 gives a category for: error answers the spec shapes. */
const SHAPED = new Set([400, 401, 429, 500]);

const SHOW = 200;
const snippet = (res: { text: string }) => (res.text.length > SHOW ? `${res.text.slice(0, SHOW)}…` : res.text);

const mediaTypes = new Map<string, boolean>();
let lastType = '';
let lastIsJson = false;
function isJson(ct: string | undefined): boolean {
  if (typeof ct !== 'string') return false;
  // A server sends one or two spellings; the load judge asks per answer, so each is read once (and the
  // last one is compared before any lookup: each answer's header is a new string).
  if (ct === lastType) return lastIsJson;
  let v = mediaTypes.get(ct);
  if (v === undefined) {
    v = ct.split(';')[0].trim().toLowerCase() === 'application/json';
    if (mediaTypes.size < 64) mediaTypes.set(ct, v);
  }
  lastType = ct;
  lastIsJson = v;
  return v;
}

/** What the audit found wrong with one answer: the rule it breaks and what was seen (no location prefix). */
export interface AnswerFinding {
  rule: 'ERR-BODY-SHAPE' | 'ERR-CATEGORY-STATUS' | 'GENERAL-TRANSPORT-JSON' | 'ENDPOINT-RESPONSE-SCHEMA' | 'VERSION-FIELD-NAMING';
  /** `op (METHOD path)`, for messages. */
  where: string;
  detail: string;
}

/** The answer as the audit reads it: what `run`'s client records, and what the load judge rebuilds at speed. */
export type AuditedAnswer = Pick<HttpResponse, 'status' | 'headers' | 'text' | 'json'>;

/**
 * The rules every answer of an operation is held to (one vocabulary for `run` and for the load
 * judge, src/load/judge.ts): the section 7 body and category for the statuses section 7 shapes, the
 * operation's documented schema and JSON for success answers. Undefined when the answer holds.
 */
export function auditAnswer(model: Model, op: string, res: AuditedAnswer): AnswerFinding | undefined {
  return answerJudge(model, op, res.status)(res);
}

/** The audit of one operation's answers of one status, with its lookups done once: what the load judge calls per answer. */
export type AnswerJudge = (res: AuditedAnswer) => AnswerFinding | undefined;

const holds: AnswerJudge = () => undefined;
// One compiled judge per model, operation and status: the load judge asks for one per answer, so
// the lookups (operation, schema key, validator, section 7 category) happen once, not per answer.
const judges = new WeakMap<Model, Map<string, AnswerJudge[]>>();

export function answerJudge(model: Model, op: string, status: number): AnswerJudge {
  let byOp = judges.get(model);
  if (!byOp) judges.set(model, (byOp = new Map()));
  let byStatus = byOp.get(op);
  if (!byStatus) byOp.set(op, (byStatus = []));
  // Statuses outside 100..999 are not HTTP; they are judged, never cached (a sparse array stays small).
  const cacheable = Number.isInteger(status) && status >= 100 && status <= 999;
  let j = cacheable ? byStatus[status] : undefined;
  if (!j) {
    j = compileJudge(model, op, status);
    if (cacheable) byStatus[status] = j;
  }
  return j;
}

function compileJudge(model: Model, op: string, status: number): AnswerJudge {
  const operation = model.operations.get(op as OperationId);
  if (!operation || operation.server !== 'api') return holds;
  const where = `${op} (${operation.method.toUpperCase()} ${operation.pathUnspecified ? 'profile path' : operation.path})`;
  const found = (f: Omit<AnswerFinding, 'where'>): AnswerFinding => ({ ...f, where });
  if (SHAPED.has(status)) {
    const want = model.categoryFor(status);
    const errorBody = model.errorBodyValidator;
    return (res) => {
      if (!errorBody(res.json)) {
        const problems = (errorBody.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
        return found({ rule: 'ERR-BODY-SHAPE', detail: `HTTP ${status} error body does not have the section 7 shape (${problems}): ${snippet(res)}` });
      }
      const cat = (res.json as { error_category: { category: unknown; http_status_code: unknown } }).error_category;
      if (cat.http_status_code !== status || (want !== null && cat.category !== want)) {
        return found({ rule: 'ERR-CATEGORY-STATUS', detail: `HTTP ${status} carries error_category ${JSON.stringify(cat)}; section 7 gives ${want} with http_status_code ${status}` });
      }
      return undefined;
    };
  }
  if (!(status >= 200 && status < 300)) return holds;
  const key = [`${op}:${status}`, `${op}:2XX`].find((k) => model.validator(k));
  if (!key) return holds;
  const validate = model.validator(key)!;
  const facts = namingFactsOf(model);
  const namingOf = facts ? namingCheck(facts) : undefined;
  return (res) => {
    if (res.text.length === 0) {
      // No body: 204 has none by definition, and a schema that shows nothing (an action whose answer is
      // not shown) accepts its absence; a schema that shows fields does not.
      if (status === 204 || validate(undefined)) return undefined;
      return found({ rule: 'ENDPOINT-RESPONSE-SCHEMA', detail: `HTTP ${status} has an empty body; the ${key} schema shows fields (section 4: all bodies are JSON)` });
    }
    if (res.json === undefined) return found({ rule: 'GENERAL-TRANSPORT-JSON', detail: `HTTP ${status} body is not JSON: ${snippet(res)}` });
    if (!isJson(res.headers['content-type'])) {
      return found({ rule: 'ENDPOINT-RESPONSE-SCHEMA', detail: `HTTP ${status} has Content-Type ${JSON.stringify(res.headers['content-type'] ?? '(none)')}, expected application/json` });
    }
    if (!validate(res.json)) {
      const problems = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
      return found({ rule: 'ENDPOINT-RESPONSE-SCHEMA', detail: `HTTP ${status} does not match the ${key} schema: ${problems}` });
    }
    // Section 9.2 holds for every payload: a convention name renamed or mistyped where the schema leaves
    // fields open ("Other ... fields: not shown"). A twin beside the name as written is not a finding here.
    const naming = namingOf ? namingOf(res.json) : [];
    if (naming.length > 0) return found({ rule: 'VERSION-FIELD-NAMING', detail: `HTTP ${status} breaks the section 9.2 field naming convention: ${naming.slice(0, 3).join('; ')}` });
    return undefined;
  };
}

/**
 * The first problem among `observed`, as the CheckFailure naming the rule it breaks; undefined when all
 * hold. The message names the operation that answered and says the rule is not the check's subject: a
 * check receives answers of its setup steps too (a Card recipient made so a row can be tried on the
 * transfer estimate), and a reader must not take the finding for the check's own rule. `ownHeld`: the
 * check's own assertions passed, so the finding is the only reason it fails.
 */
export function auditResponses(model: Model, observed: readonly ObservedResponse[], ownHeld = false): AuditFailure | undefined {
  for (const { op, res } of observed) {
    const f = auditAnswer(model, op, res);
    if (!f) continue;
    const lead = ownHeld ? "the check's own assertions held, but an answer it received" : 'an answer this check received';
    return new AuditFailure(`${lead} from ${f.where} breaks ${f.rule}, which every answer is held to whatever the check is about: ${f.detail}`, { rules: [f.rule], response: res });
  }
  return undefined;
}

/**
 * A failing check's result with the audit's finding beside its own failure: the check's message and
 * rules stay first and unchanged; the finding is added under `audit` (its own rule, named) and
 * appended to the message so every report shows it. Unchanged when the audit found nothing, or when
 * the failure already names every rule the finding breaks.
 */
export function withAudit(failure: CheckFailureInfo, audit: AuditFailure | undefined, mask: (s: string) => string = (s) => s): CheckFailureInfo {
  const rules = audit?.rules ?? [];
  if (!audit || rules.length === 0) return failure;
  if (failure.rulesNamed && rules.every((r) => failure.rules.includes(r))) return failure;
  const message = mask(audit.message);
  return { ...failure, message: `${failure.message}; and ${message} [${rules.join(', ')}]`, audit: { message, rules: [...rules] } };
}
