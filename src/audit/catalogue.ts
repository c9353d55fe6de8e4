// The client side of the rule catalogue (`baas-conform rules`): every client rule, its level, and the
// judge that covers it or the reason it is untestable.

import type { Model } from '../model/types.ts';
import { JUDGES } from './judges/index.ts';

export interface ClientCatalogueEntry {
  id: string;
  side: 'client';
  section: string;
  level: 'required' | 'recommended';
  summary: string;
  quote: string;
  cites?: string;
  testable: boolean;
  untestable_reason?: string;
  /** Covered: a judge of `baas-conform audit` decides the rule. */
  judged: boolean;
  source: string;
}

export function clientRuleCatalogue(model: Model): ClientCatalogueEntry[] {
  return model.clientRules.map((r) => ({
    id: r.id,
    side: 'client',
    section: r.section,
    level: r.level,
    summary: r.summary,
    quote: r.quote,
    ...(r.cites ? { cites: r.cites } : {}),
    testable: r.testable,
    ...(r.untestable_reason ? { untestable_reason: r.untestable_reason } : {}),
    judged: (JUDGES as Record<string, unknown>)[r.id] != null,
    source: `spec/${r.source.file}#${r.source.pointer}`,
  }));
}
