// The process exit codes of every command, declared once, and the words of a verdict that judged
// nothing. A command that observed nothing it could judge (an audit no client called, a run whose
// checks all skipped, a load threshold over zero samples, a read-back that could not read) is
// INCONCLUSIVE: never 0, whatever --strict says, so a CI job whose client never started is not green.

export const EXIT_CODES = {
  /** Everything judged passed. */
  ok: 0,
  /** A finding: a check failed or was blocked, a rule broke, a threshold was breached. */
  failed: 1,
  /** Usage, configuration or model error. */
  usage: 2,
  /** The target could not be reached at all. */
  unreachable: 3,
  /** Nothing was judged: no verdict either way. */
  inconclusive: 4,
  /** Cancelled (Ctrl-C): the shell's 128 + SIGINT. */
  cancelled: 130,
} as const;

/** What a command concluded: `inconclusive` when it judged nothing (and found nothing to fail). */
export type Conclusion = 'pass' | 'fail' | 'inconclusive';

/** The exit code of a conclusion. */
export function exitCodeOf(c: Conclusion): 0 | 1 | 4 {
  return c === 'pass' ? EXIT_CODES.ok : c === 'fail' ? EXIT_CODES.failed : EXIT_CODES.inconclusive;
}

/** A finding decides over a lack of evidence: fail > inconclusive > pass. */
export function conclude(failed: boolean, judgedNothing: boolean): Conclusion {
  return failed ? 'fail' : judgedNothing ? 'inconclusive' : 'pass';
}

/** The one wording of an inconclusive verdict: "INCONCLUSIVE: <what> judged nothing because <why>". */
export function inconclusive(what: string, because: string): string {
  return `INCONCLUSIVE: ${what} judged nothing because ${because}`;
}
