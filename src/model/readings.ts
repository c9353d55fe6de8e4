// Readings (spec/rules `readings`): where a sentence leaves a choice to the server, the rule records
// the sentence, the reading the checks apply (every answer the spec allows) and which accepted answer
// may still hide a fault. A check reports that answer through `readingWarning`, so the warning
// carries the spec's words and --strict turns it into a failure; nothing downstream restates them.

import { ModelError } from '../errors/index.ts';
import type { Model, Reading, Rule, RuleId } from './types.ts';

/** Loader cross-check: reading ids are unique within their rule. */
export function checkReadings(rule: Rule): void {
  const seen = new Set<string>();
  (rule.readings ?? []).forEach((r, i) => {
    if (seen.has(r.id)) throw new ModelError(`spec/${rule.source.file}`, `${rule.source.pointer}/readings/${i}/id`, `rule ${rule.id} has two readings with id "${r.id}"`);
    seen.add(r.id);
  });
}

/** The reading `id` of `rule`; a check naming a reading the rule does not record is a bug (thrown). */
export function reading(model: Model, rule: RuleId, id: string): Reading {
  const r = model.rule(rule).readings?.find((x) => x.id === id);
  if (!r) throw new Error(`spec/rules: rule ${rule} records no reading "${id}" (add it under the rule's readings)`);
  return r;
}

/**
 * The warning a check reports when it accepts an answer under a relaxed reading: what was observed,
 * then the rule, the recorded warning and the sentence, quoted with its section.
 */
export function readingWarning(model: Model, rule: RuleId, id: string, observed: string): string {
  const r = reading(model, rule, id);
  const section = r.section ?? model.rule(rule).section;
  return `${observed}: accepted under the reading of ${rule} (${r.reading})${r.warns ? `; ${r.warns}` : ''}; section ${section}: "${r.sentence}"`;
}
