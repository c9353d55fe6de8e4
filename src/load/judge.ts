// Every answer of a load run judged at load speed by the rules `run` holds every answer to
// (src/checks/audit.ts answerJudge: the section 7 body and category for 400/401/429/500, the
// operation's schema and JSON for success answers; ajv validators compiled once by the model).
// Findings are counted per rule and per operation; the first few offending exchanges per rule are
// kept for the report. Sampling (`--judge-sample F`) is deterministic: every answer whose running
// share crosses the next whole judgement, so F = 0.25 judges answers 4, 8, 12, ...

import { answerJudge, type AnswerFinding, type AnswerJudge, type AuditedAnswer } from '../checks/audit.ts';
import type { Model } from '../model/index.ts';
import type { ConformanceExchange, ConformanceResult } from './types.ts';

/** Offending exchanges kept per rule, and how much of a body each keeps. */
export const EXCHANGES_PER_RULE = 3;
const BODY_CHARS = 1000;
// Values of these fields never reach a report: tokens and secrets a faulty answer or a request may carry.
const SECRET_FIELDS = /"(access_token|client_secret|card_token|signed_challenge|token|cvv|card_number|pin)"\s*:\s*"[^"]*"/g;

export function redactBody(text: string): string {
  const cut = text.length > BODY_CHARS ? `${text.slice(0, BODY_CHARS)}…` : text;
  return cut.replace(SECRET_FIELDS, '"$1":"***"');
}

export interface JudgedRequest {
  op: string;
  method: string;
  path: string;
  body?: string;
}

export class LoadJudge {
  private readonly r: ConformanceResult;
  private share = 0;
  private readonly t0 = performance.now();
  // The last operation and status judged, and their compiled audit: a run's answers come in long runs of one kind.
  private lastOp = '';
  private lastStatus = -1;
  private lastJudge: AnswerJudge = () => undefined;
  // One answer object reused for every answer (the audit reads it synchronously and keeps nothing).
  private readonly answer: AuditedAnswer & { headers: Record<string, string> } = { status: 0, headers: {}, text: '', json: undefined };

  constructor(
    private readonly model: Model,
    readonly sample: number,
    private readonly onFinding?: (rule: string, op: string) => void,
  ) {
    this.r = { sample, answers: 0, judged: 0, findings: 0, by_rule: {}, by_operation: {}, exchanges: {} };
  }

  get on(): boolean {
    return this.sample > 0;
  }

  /** Called once per answer (at its headers): whether this one is judged (its body is then kept). */
  wants(): boolean {
    this.r.answers++;
    if (this.sample >= 1) return true;
    this.share += this.sample;
    if (this.share < 1) return false;
    this.share -= 1;
    return true;
  }

  judge(req: JudgedRequest, status: number, headers: Record<string, string>, text: string): void {
    this.judgeAnswer(req, status, headers['content-type'], text);
  }

  /**
   * One answer judged: its body parsed once, then the compiled audit of its operation and status
   * (src/checks/audit.ts answerJudge). On the success path nothing is allocated beyond the parse.
   */
  judgeAnswer(req: JudgedRequest, status: number, contentType: string | undefined, text: string): void {
    this.r.judged++;
    let json: unknown;
    if (text.length) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    if (req.op !== this.lastOp || status !== this.lastStatus) {
      this.lastOp = req.op;
      this.lastStatus = status;
      this.lastJudge = answerJudge(this.model, req.op, status);
    }
    const a = this.answer;
    a.status = status;
    a.text = text;
    a.json = json;
    if (contentType === undefined) delete a.headers['content-type'];
    else a.headers['content-type'] = contentType;
    const f = this.lastJudge(a);
    a.text = '';
    a.json = undefined;
    if (f) this.found(f, req, status, contentType, text);
  }

  private found(f: AnswerFinding, req: JudgedRequest, status: number, contentType: string | undefined, text: string): void {
    const r = this.r;
    r.findings++;
    r.by_rule[f.rule] = (r.by_rule[f.rule] ?? 0) + 1;
    const byOp = (r.by_operation[req.op] ??= {});
    byOp[f.rule] = (byOp[f.rule] ?? 0) + 1;
    const kept = (r.exchanges[f.rule] ??= []);
    if (kept.length < EXCHANGES_PER_RULE) {
      const ex: ConformanceExchange = {
        op: req.op,
        at_ms: Math.round(performance.now() - this.t0),
        request: `${req.method} ${req.path}`,
        ...(req.body !== undefined ? { request_body: redactBody(req.body) } : {}),
        status,
        content_type: contentType ?? null,
        response_body: redactBody(text),
        detail: redactBody(f.detail),
      };
      kept.push(ex);
    }
    this.onFinding?.(f.rule, req.op);
  }

  result(): ConformanceResult {
    return this.r;
  }
}

/** Sum of several runs' conformance results (shards): counts add, exchanges keep the first per rule. */
export function mergeConformance(list: ConformanceResult[]): ConformanceResult | undefined {
  if (!list.length) return undefined;
  const out: ConformanceResult = { sample: list[0].sample, answers: 0, judged: 0, findings: 0, by_rule: {}, by_operation: {}, exchanges: {} };
  for (const c of list) {
    out.answers += c.answers;
    out.judged += c.judged;
    out.findings += c.findings;
    if (c.sample !== out.sample) out.sample = Math.min(out.sample, c.sample);
    for (const [rule, n] of Object.entries(c.by_rule)) out.by_rule[rule] = (out.by_rule[rule] ?? 0) + n;
    for (const [op, rules] of Object.entries(c.by_operation)) {
      const o = (out.by_operation[op] ??= {});
      for (const [rule, n] of Object.entries(rules)) o[rule] = (o[rule] ?? 0) + n;
    }
    for (const [rule, ex] of Object.entries(c.exchanges)) {
      const kept = (out.exchanges[rule] ??= []);
      for (const e of ex) if (kept.length < EXCHANGES_PER_RULE) kept.push(e);
    }
  }
  return out;
}

/** One line per (rule, operation) with its count, most frequent first: what the verdict names. */
export function findingLines(c: ConformanceResult): string[] {
  const rows: [string, string, number][] = [];
  for (const [op, rules] of Object.entries(c.by_operation)) for (const [rule, n] of Object.entries(rules)) rows.push([rule, op, n]);
  return rows.sort((a, b) => b[2] - a[2] || a[0].localeCompare(b[0]) || a[1].localeCompare(b[1])).map(([rule, op, n]) => `${rule} on ${op}: ${n}`);
}
