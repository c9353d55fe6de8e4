// Readings (spec/rules `readings`): where a check accepts an answer only because a sentence leaves the
// choice open, and that answer may hide a fault, it warns with the rule's recorded sentence. The run
// passes; --strict fails it (src/runner/exit). The words come from the model, never from the driver.

import type { CheckContext } from '../../src/checks/types.ts';
import { readingWarning } from '../../src/model/readings.ts';
import type { RuleId } from '../../src/model/types.ts';

/** Reports `observed` as accepted under reading `id` of `rule`, with the sentence it rests on. */
export function warnReading(ctx: CheckContext, rule: RuleId, id: string, observed: string): void {
  ctx.warn(readingWarning(ctx.model, rule, id, observed));
}
