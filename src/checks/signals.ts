// What a check body throws to end itself: CheckFailure (the target broke a rule) or SkipSignal (the
// check cannot run here, with a reason). The runner maps anything else to a failure with a cause.

import type { FieldComparison } from '../events/index.ts';
import type { RuleId } from '../model/types.ts';
import type { HttpResponse } from './types.ts';

export interface CheckFailureOptions {
  /** Rule ids the failed assertion is about; default: all of the check's rules. */
  rules?: RuleId[];
  /** The response that showed the failure; the runner attaches its recorded exchange. */
  response?: HttpResponse;
  counterexample?: string;
  /** Expected and actual field by field, for reports (optional). */
  comparison?: FieldComparison[];
}

export class CheckFailure extends Error {
  readonly code = 'CHECK_FAILED';
  readonly rules?: RuleId[];
  readonly response?: HttpResponse;
  readonly counterexample?: string;
  readonly comparison?: FieldComparison[];
  constructor(message: string, opts: CheckFailureOptions = {}) {
    super(message);
    this.name = 'CheckFailure';
    this.rules = opts.rules;
    this.response = opts.response;
    this.counterexample = opts.counterexample;
    if (opts.comparison) this.comparison = opts.comparison;
  }
}

export class SkipSignal extends Error {
  readonly code = 'CHECK_SKIPPED';
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipSignal';
  }
}

export function isCheckFailure(err: unknown): err is CheckFailure {
  return err instanceof CheckFailure || (err instanceof Error && (err as { code?: string }).code === 'CHECK_FAILED');
}

export function isSkipSignal(err: unknown): err is SkipSignal {
  return err instanceof SkipSignal || (err instanceof Error && (err as { code?: string }).code === 'CHECK_SKIPPED');
}
