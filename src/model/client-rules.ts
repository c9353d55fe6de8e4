// spec/rules/client.yaml (already validated against its schema) into typed ClientRules, checked
// against the rest of the model: ids unique, operations existing, untestable rules saying why, and
// the headers a rule names being section 5 headers of spec/rules/auth.yaml.

import { ModelError } from '../errors/index.ts';
import type { RawClientRule } from './raw.ts';
import type { ClientRule } from './types.ts';

export function clientRulesOf(raw: { rules: RawClientRule[] }, rel: string, operations: ReadonlyMap<string, unknown>, auth: { chain_header: string; identity_headers: string[] }): ClientRule[] {
  const seen = new Set<string>();
  const headers = new Set<string>([auth.chain_header, ...auth.identity_headers]);
  return raw.rules.map((r, i): ClientRule => {
    const pointer = `/rules/${i}`;
    if (seen.has(r.id)) throw new ModelError(`spec/${rel}`, `${pointer}/id`, `duplicate client rule id "${r.id}"`);
    seen.add(r.id);
    (r.operations as string[]).forEach((op, j) => {
      if (!operations.has(op)) throw new ModelError(`spec/${rel}`, `${pointer}/operations/${j}`, `operation "${op}" does not exist in spec/openapi.yaml`);
    });
    if (r.testable === false && !r.untestable_reason) throw new ModelError(`spec/${rel}`, `${pointer}/untestable_reason`, `rule ${r.id} is marked testable: false without an untestable_reason`);
    if (r.facts?.header !== undefined && !headers.has(r.facts.header)) {
      throw new ModelError(`spec/${rel}`, `${pointer}/facts/header`, `header "${r.facts.header}" is not a section 5 header of spec/rules/auth.yaml`);
    }
    return {
      id: r.id, side: 'client', section: r.section, level: r.level, quote: r.quote, ...(r.cites ? { cites: r.cites } : {}),
      summary: r.summary, operations: r.operations, testable: r.testable ?? true,
      ...(r.untestable_reason ? { untestable_reason: r.untestable_reason } : {}),
      facts: r.facts ?? {}, source: { file: rel, pointer },
    };
  });
}
