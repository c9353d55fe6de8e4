// The hand-written half of a check: what it needs and how it runs. generators/suites.ts joins each
// driver with its rule from spec/rules (id, section, title) into suites/generated/<area>.ts.

import type { CheckContext, Need } from '../../src/checks/types.ts';
import type { OperationId, RuleId } from '../../src/model/types.ts';

export interface Driver {
  /**
   * Check title; default: the rule's summary. Spec facts are named by id and rendered by the generator
   * (renderSpecText): `{op:createUserV1}`, `{path:getUserV2}`, `{message:ERR-...}`, `{webhook:user}`.
   */
  title?: string;
  /** True when the check creates nothing and moves no money. */
  safe: boolean;
  needs?: Need[];
  /** Must not run alongside other checks (moves the server clock, floods the rate limiter). */
  exclusive?: boolean;
  /** Further rule ids this check also covers (their rules need no driver of their own). */
  alsoCovers?: RuleId[];
  run(ctx: CheckContext): Promise<void>;
}

/** An area's drivers, keyed by the rule id each one checks (a key spec/rules does not have fails tsc). */
export type Drivers = { [K in RuleId]?: Driver };

/** The schema area's drivers, keyed by the operationId whose happy path each one validates. */
export type OperationDrivers = { [K in OperationId]?: Driver };
/**
 * A check of several rules at once (a section 3 state-machine model, a concurrency check, a second
 * check of a rule): registered by check id in suites/models/index.ts. The generator places it in the
 * area of its first rule (spec/placement.yaml), takes that rule's section, and renders its title.
 */
export interface MultiRuleDriver extends Omit<Driver, 'alsoCovers'> {
  /** The rules the check judges; the first places it (never empty). */
  rules: readonly RuleId[];
}

export type MultiRuleDrivers = Record<string, MultiRuleDriver>;
