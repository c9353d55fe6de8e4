// The engine's event stream. Reporters consume these and never touch the engine.

export type Verdict = 'pass' | 'fail' | 'skip';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Body as sent (string), secrets already masked. */
  body?: string;
}

export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  /** Body text, truncated to a bounded size for the report. */
  body?: string;
  truncated?: boolean;
}

export interface Exchange {
  checkId: string;
  request: RecordedRequest;
  response?: RecordedResponse;
  /** Transport-level failure (timeout, reset, too large, invalid JSON ...). */
  error?: { code: string; message: string };
  durationMs: number;
  /** Attempt number when retried after 429 (1-based). */
  attempt: number;
  /** A curl command that reproduces the request, secrets masked. */
  curl: string;
}

/** One field of a failed comparison: what the spec row wants beside what the target sent. */
export interface FieldComparison {
  /** Response field, e.g. `status`, `error_reason`, `error_description`, `error_category.category`. */
  field: string;
  /** Display text (JSON for values); `any` when the spec does not show the value. */
  expected: string;
  /** Display text of what the target sent (secrets masked by the runner). */
  actual: string;
  /** True for the field(s) that broke the rule. */
  differs: boolean;
}

export interface CheckFailureInfo {
  message: string;
  /** The rule ids the failed assertion is about (subset of the check's rules). */
  rules: string[];
  /**
   * True when the failed assertion itself named `rules`; false when the runner filled in all of the
   * check's rules (timeouts, transport errors, crashes, rule-less assertions). The selftest credits
   * a kill only on named rules.
   */
  rulesNamed?: boolean;
  /** fast-check shrunk counterexample, when the check is a property. */
  counterexample?: string;
  /** The exchange that showed the failure, when there is one. */
  exchange?: Exchange;
  /** Transport cause (timeout, reset, ...) when the failure is one. */
  cause?: string;
  /** Optional: expected and actual field by field (section 7 error rows, status mismatches). */
  comparison?: FieldComparison[];
}

export interface CheckResult {
  checkId: string;
  title: string;
  area: string;
  section: string;
  rules: string[];
  verdict: Verdict;
  /** Skip reason, always set for skip. */
  reason?: string;
  failure?: CheckFailureInfo;
  durationMs: number;
  requests: number;
  seed: number;
}

export interface RuleVerdict {
  id: string;
  section: string;
  kind: string;
  summary: string;
  /** pass: covered and all covering checks passed; fail: a covering check failed; skip: all covering checks skipped; uncovered: no check; untestable: recorded so in the model. */
  verdict: 'pass' | 'fail' | 'skip' | 'uncovered' | 'untestable';
  checks: string[];
  reason?: string;
}

export interface RunSummary {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  requests: number;
  durationMs: number;
  rules: { total: number; passed: number; failed: number; skipped: number; uncovered: number; untestable: number };
}

export type RunEvent =
  | { type: 'run-started'; runId: string; seed: number; target: string; targetName: string; checks: number; shard?: string; safe: boolean; startedAt: string; toolVersion: string }
  | { type: 'check-started'; checkId: string; title: string }
  | { type: 'exchange'; exchange: Exchange }
  | { type: 'check-finished'; result: CheckResult }
  | { type: 'run-finished'; summary: RunSummary; rules: RuleVerdict[]; results: CheckResult[]; finishedAt: string };

export interface Reporter {
  onEvent(event: RunEvent): void | Promise<void>;
  /** Called once after run-finished; writes files. */
  close?(): Promise<void>;
}
