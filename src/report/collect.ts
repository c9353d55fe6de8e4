// Accumulates the event stream into what file reporters write. Exchanges are kept only for checks
// that failed (and bounded per check), so a long run does not hold every request in memory.

import type { CheckResult, Exchange, ExpectedFailuresOutcome, RootCause, RuleVerdict, RunDiff, RunEvent, RunExitInfo, RunSummary } from '../events/index.ts';

export const COLLECT_DEFAULTS = {
  /** Exchanges kept per failed check (the last ones: closest to the failure). */
  exchangesPerCheck: 50,
} as const;

export type RunStarted = Extract<RunEvent, { type: 'run-started' }>;

/** A check result with the exchanges recorded for it (failed and blocked checks). */
export type CollectedCheck = CheckResult & {
  exchanges?: Exchange[];
};

export interface CollectedRun {
  started?: RunStarted;
  finishedAt?: string;
  summary?: RunSummary;
  rules: RuleVerdict[];
  checks: CollectedCheck[];
  /** Root causes (own failures, blocking operations), most checks explained first. */
  rootCauses: RootCause[];
  /** Against --baseline (the HTML shows the same lists as `baas-conform diff`). */
  diff?: RunDiff;
  expected?: ExpectedFailuresOutcome;
  exit?: RunExitInfo;
}

/** Drops user:password@ from a URL: the target shown in reports must carry no credentials. */
export function publicUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href.replace(/\/$/, '');
  } catch {
    return url;
  }
}

export class RunCollector {
  private readonly pending = new Map<string, Exchange[]>();
  readonly run: CollectedRun = { rules: [], checks: [], rootCauses: [] };
  constructor(private readonly perCheck: number = COLLECT_DEFAULTS.exchangesPerCheck) {}

  onEvent(e: RunEvent): void {
    switch (e.type) {
      case 'run-started':
        this.run.started = { ...e, target: publicUrl(e.target) };
        break;
      case 'check-started':
        this.pending.set(e.checkId, []);
        break;
      case 'exchange': {
        const list = this.pending.get(e.exchange.checkId);
        if (!list) break;
        list.push(e.exchange);
        if (list.length > this.perCheck) list.shift();
        break;
      }
      case 'check-finished': {
        const exchanges = this.pending.get(e.result.checkId);
        this.pending.delete(e.result.checkId);
        this.run.checks.push((e.result.verdict === 'fail' || e.result.verdict === 'blocked') && exchanges?.length ? { ...e.result, exchanges } : { ...e.result });
        break;
      }
      case 'run-finished': {
        this.run.finishedAt = e.finishedAt;
        this.run.summary = e.summary;
        this.run.rules = e.rules;
        this.run.rootCauses = e.rootCauses ?? [];
        if (e.diff) this.run.diff = e.diff;
        if (e.expected) this.run.expected = e.expected;
        if (e.exit) this.run.exit = e.exit;
        // Keep the runner's order (selection order), not completion order.
        const order = new Map(e.results.map((r, i) => [r.checkId, i]));
        this.run.checks.sort((a, b) => (order.get(a.checkId) ?? 0) - (order.get(b.checkId) ?? 0));
        break;
      }
    }
  }
}
