// A selftest's outcomes (`selftest --json-out FILE`) as audit evidence: per rule, the faulty variants
// the run caught and those it missed, under the profile it ran with. Read tolerantly: a file from
// another version may lack fields, and what cannot be read is reported, never guessed.

import { ConfigError } from '../errors/index.ts';
import type { SelftestEvidence } from './spec-audit.ts';

interface Outcome {
  id?: unknown;
  kind?: unknown;
  ok?: unknown;
  breaks?: unknown;
  error?: unknown;
}

/** The evidence in a parsed selftest result; `source` names the file in the error. */
export function selftestEvidence(json: unknown, source: string): SelftestEvidence {
  const doc = json as { profile?: unknown; variants?: unknown } | null;
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.variants)) {
    throw new ConfigError(`${source}: not a selftest result (no variants list); give the file \`baas-conform selftest --json-out FILE\` wrote`);
  }
  const caught = new Map<string, string[]>();
  const missed = new Map<string, string[]>();
  for (const o of doc.variants as Outcome[]) {
    // A run that could not be done shows nothing about the rule.
    if (o?.kind !== 'faulty' || typeof o.id !== 'string' || !Array.isArray(o.breaks) || o.error) continue;
    const into = o.ok === true ? caught : missed;
    for (const rule of o.breaks) if (typeof rule === 'string') (into.get(rule) ?? into.set(rule, []).get(rule)!).push(o.id);
  }
  return { profile: doc.profile === 'minimal' ? 'minimal' : 'full', caught, missed };
}
