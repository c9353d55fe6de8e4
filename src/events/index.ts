// The engine's event stream. Reporters consume these and never touch the engine.

/**
 * blocked: a prerequisite step (a call to another operation) failed, so the check observed nothing
 * about its own rules; it counts as a failure for the exit code, but its root cause is that operation.
 */
export type Verdict = 'pass' | 'fail' | 'skip' | 'blocked';

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
  /** W3C trace id this request carried in `traceparent` (one per check), to find it in the target's tracing backend. */
  traceId?: string;
  /** Span (parent-id) of this attempt in `traceparent`: one per request sent, retries included. */
  spanId?: string;
  /** The `X-Request-Id` this attempt carried. */
  requestId?: string;
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
  /** True when the assertion named only rules this check does not cover (e.g. a failed baseline step about another rule). */
  namedOutsideCheck?: boolean;
  /** fast-check shrunk counterexample, when the check is a property. */
  counterexample?: string;
  /** The exchange that showed the failure, when there is one. */
  exchange?: Exchange;
  /** Transport cause (timeout, reset, ...) when the failure is one. */
  cause?: string;
  /** Optional: expected and actual field by field (section 7 error rows, status mismatches). */
  comparison?: FieldComparison[];
  /** The operation whose call failed, when the check's own subject step failed (root-cause grouping). */
  operation?: string;
  /**
   * A problem the runner's audit of every answer (src/checks/audit.ts) found among the answers this
   * failing check received, under the rule it names (which the check need not cover); the message
   * above also carries it. The rule fails with it (rule verdicts) and the selftest credits it as named.
   */
  audit?: { message: string; rules: string[] };
}

/** Why a check is blocked: the setup operation that failed and the rules of that operation it breaks. */
export interface BlockedInfo {
  /** operationId of the failed prerequisite step. */
  operation: string;
  /** Rule ids of that operation the failed step breaks (the root cause, not the check's own rules). */
  rules: string[];
  message: string;
  /** The exchange of the failed step, when there is one. */
  exchange?: Exchange;
  /**
   * Set when the failed step was a control adapter's (src/control/guard.ts): the user's adapter threw,
   * could not reach its endpoint, was refused or answered the wrong shape. An adapter error names no
   * rule (`rules` is empty) and is reported apart from the target's failures.
   */
  adapter?: { source: string; operation: string; problem: 'threw' | 'unreachable' | 'refused' | 'malformed' };
}

/** An assertion a check could not judge, and the service whose absence stopped it. */
export interface Unjudged {
  what: string;
  missing: string;
}

/** What every check result carries, whatever its verdict. */
export interface CheckResultBase {
  checkId: string;
  title: string;
  area: string;
  section: string;
  rules: string[];
  verdict: Verdict;
  /** What the spec recommends but does not require and the target did not do (ctx.warn); never a failure unless --strict. */
  warnings?: string[];
  /** Assertions the check could not judge for a missing service (ctx.couldNotJudge): reported, never counted as passed. */
  unjudged?: Unjudged[];
  durationMs: number;
  requests: number;
  seed: number;
}

/** The check ran to its end and every assertion held. */
export interface PassedCheck extends CheckResultBase {
  verdict: 'pass';
  reason?: undefined;
  failure?: undefined;
  blocked?: undefined;
}

/** An assertion failed (or the check crashed, timed out, lost its transport): the failure says which and why. */
export interface FailedCheck extends CheckResultBase {
  verdict: 'fail';
  failure: CheckFailureInfo;
  reason?: undefined;
  blocked?: undefined;
}

/** The check could not run here (a missing need, --safe, cancellation): the reason says why. */
export interface SkippedCheck extends CheckResultBase {
  verdict: 'skip';
  reason: string;
  failure?: undefined;
  blocked?: undefined;
}

/** A setup step of another operation failed first: the check observed nothing about its own rules. */
export interface BlockedCheck extends CheckResultBase {
  verdict: 'blocked';
  blocked: BlockedInfo;
  reason?: undefined;
  failure?: undefined;
}

/**
 * One check's outcome, a union on its verdict (as fast-check's RunDetails is on `failed`): a failure
 * always has its `failure`, a skip its `reason`, a blocked check its `blocked`, and no other verdict
 * carries them, so a reader narrows on `verdict` instead of trusting a comment.
 */
export type CheckResult = PassedCheck | FailedCheck | SkippedCheck | BlockedCheck;

export interface RuleVerdict {
  id: string;
  section: string;
  kind: string;
  summary: string;
  /**
   * pass: covered and all covering checks passed; fail: a covering check failed, or a setup step of
   * this rule's operation failed in some check (it is that check's root cause); blocked: no covering
   * check got past a failed prerequisite; skip: all covering checks skipped; uncovered: no check;
   * untestable: recorded so in the model.
   */
  verdict: 'pass' | 'fail' | 'skip' | 'blocked' | 'uncovered' | 'untestable';
  checks: string[];
  reason?: string;
}

/**
 * One root cause: a check that failed on its own rules (kind failure), or an operation whose failed
 * setup step blocked checks while no check of its own failed on it (kind blocking). Blocked checks
 * are listed under the cause that explains them.
 */
export interface RootCause {
  kind: 'failure' | 'blocking';
  /** failure: the check id; blocking: the operation id. */
  id: string;
  operation?: string;
  /** Set when the cause is a control adapter error: what configured the adapter (src/control/guard.ts). */
  adapter?: string;
  rules: string[];
  message: string;
  /** Checks that failed on their own rules with this cause (one, or several failing on the same operation). */
  checks: string[];
  /** Blocked checks this cause explains. */
  blocked: string[];
}

export interface RunSummary {
  /** Distinct causes: own failures plus blocking operations no own failure explains. Read this first. */
  rootCauses: number;
  passed: number;
  failed: number;
  /** Checks blocked by a failed prerequisite (they fail the run like failed checks). */
  blocked: number;
  /** Of the blocked: checks blocked by a control adapter error (the adapter's fault, not the target's). */
  adapterErrors?: number;
  skipped: number;
  /** Checks that recorded at least one warning (any verdict). */
  warned: number;
  total: number;
  requests: number;
  durationMs: number;
  rules: { total: number; passed: number; failed: number; blocked: number; skipped: number; uncovered: number; untestable: number };
  /** Rule coverage: what the run exercised, skipped (by reason) and cannot test (src/runner/coverage.ts). */
  coverage?: CoverageSummary;
  /** What the run did to leave the sandbox as it found it: the clock it moved, undone or left (src/control/clock.ts). */
  sandbox?: { clock?: { advancedSeconds: number; restored: boolean; message: string } };
  /** The webhook receiver's bounds at the end of the run, when one ran (dropped > 0: history overflowed). */
  webhooks?: { received: number; dropped: number; droppedBytes: number; tooLarge: number; keptBytes: number };
}

/** Counts and shares (0..1) of the model's rules by what the run did with them. */
export interface CoverageSummary {
  /**
   * exercised: judged by a check against the target (src/runner/coverage.ts judgedRules); skipped: every
   * other covered testable rule, of which `blocked` by a failed prerequisite or control adapter and
   * `partial` passed with part of the rule left unjudged (a missing profile field or service).
   */
  rules: { total: number; exercised: number; skipped: number; uncovered: number; untestable: number; testable: number; blocked?: number; partial?: number };
  /** Shares of all rules; they sum to 1. */
  shares: { exercised: number; skipped: number; uncovered: number; untestable: number };
  /** exercised / testable (untestable rules can never be exercised): what --min-coverage compares. */
  exercisedShareOfTestable: number;
  /** Skipped rules and checks grouped by skip reason, most rules first. */
  skippedByReason: { reason: string; rules: number; checks: number }[];
  /** --min-coverage P and whether the run fell short of it. */
  minimum?: { share: number; met: boolean };
}

export type RunEvent =
  | { type: 'run-started'; runId: string; seed: number; target: string; targetName: string; checks: number; shard?: string; safe: boolean; startedAt: string; toolVersion: string }
  | { type: 'check-started'; checkId: string; title: string }
  | { type: 'exchange'; exchange: Exchange }
  | { type: 'warning'; checkId: string; message: string }
  | { type: 'check-finished'; result: CheckResult }
  | {
      type: 'run-finished';
      summary: RunSummary;
      rules: RuleVerdict[];
      results: CheckResult[];
      finishedAt: string;
      /** Root causes, most checks explained first. */
      rootCauses?: RootCause[];
      /** Against --baseline: what newly fails, what was fixed, what became skipped. */
      diff?: RunDiff;
      /** --expected-failures: which listed failures were waived and which entries rotted. */
      expected?: ExpectedFailuresOutcome;
      /** How the exit code was decided (strict, waivers; 4 and verdict `inconclusive`: nothing was judged). */
      exit?: RunExitInfo;
    };

/** The exit decision of a run (src/baseline/exit.ts): code, conclusion and the reasons for it. */
export interface RunExitInfo {
  code: 0 | 1 | 4;
  verdict?: 'pass' | 'fail' | 'inconclusive';
  reasons: string[];
}

export interface Reporter {
  onEvent(event: RunEvent): void | Promise<void>;
  /** Called once after run-finished; writes files. */
  close?(): Promise<void>;
}

/** A verdict change between two runs, for one check or one rule. */
export interface VerdictChange {
  id: string;
  from: string;
  to: string;
  /** Failure, block or skip reason in the new run, when there is one. */
  detail?: string;
}

export interface DiffGroup {
  /** Was pass/skip/absent, now fail or blocked. */
  newlyFailing: VerdictChange[];
  /** Was fail or blocked, now pass. */
  fixed: VerdictChange[];
  /** Was pass, fail or blocked, now skip (a skip can hide a regression). */
  newlySkipped: VerdictChange[];
  /** Any other change (e.g. fail -> blocked, skip -> pass). */
  other: VerdictChange[];
}

/** `baas-conform diff OLD NEW` and `run --baseline OLD`: per rule and per check. */
export interface RunDiff {
  baseline: { runId?: string; seed?: number; started?: string; toolVersion?: string };
  checks: DiffGroup;
  rules: DiffGroup;
  /** Ids only in one of the two runs (another shard, --check, a renamed check). */
  onlyInBaseline: string[];
  onlyInCurrent: string[];
}

export interface ExpectedFailureEntry {
  check: string;
  reason: string;
  /** YYYY-MM-DD; the entry stops waiving after that day (UTC). */
  expires?: string;
  /** known (default): a defect being fixed; muted: silenced noise; accepted: an accepted deviation. */
  kind?: WaiverKind;
  owner?: string;
  /** Issue URL or ticket id, named when the entry expires. */
  link?: string;
}

export type WaiverKind = 'known' | 'muted' | 'accepted';

export interface ExpectedFailuresOutcome {
  file: string;
  /** Listed checks that failed or were blocked: reported, not counted against the run. */
  waived: { check: string; reason: string; verdict: string; kind: WaiverKind; owner?: string; link?: string }[];
  /** Entries that make the list rot and so fail the run. */
  problems: { check: string; problem: 'now-passes' | 'expired' | 'unknown-check'; message: string }[];
}
