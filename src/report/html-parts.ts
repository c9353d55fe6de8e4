// View pieces the run report's sections share (html-view.ts for checks, html-outcome.ts for the
// outcome, html-selftest.ts for the kill matrix): a rule as the model states it, a recorded exchange,
// a check's anchor. Kept apart so the section builders depend on them, not on each other.

import type { Exchange } from '../events/index.ts';
import type { CollectedCheck } from './collect.ts';
import type { Model, Rule } from '../model/types.ts';

/** One line for a rule: its summary, or for a section 7 row the row itself (error rules have no summary). */
export function ruleLine(rule: Rule | undefined): string | undefined {
  if (!rule) return undefined;
  if (rule.summary) return rule.summary;
  if (rule.kind === 'error') return `${rule.cause}: ${rule.status} ${rule.reason ?? '(reason not shown)'} ${rule.message === null ? '(message not shown)' : JSON.stringify(rule.message)}`;
  return undefined;
}

export function findRule(model: Model | undefined, id: string): Rule | undefined {
  // Ids come from results files, which may name rules of another spec: narrow, never throw.
  return model?.isRuleId(id) ? model.rule(id) : undefined;
}

/** The rule as the model states it: the section 7 row for error rules, the summary otherwise. */
export function ruleQuote(model: Model | undefined, id: string) {
  const rule = findRule(model, id);
  if (!rule) return { id, known: false };
  const notShown = '(not shown: any)';
  return {
    id,
    known: true,
    section: rule.section,
    kind: rule.kind,
    summary: rule.summary,
    source: `spec/${rule.source.file}${rule.source.pointer ? `#${rule.source.pointer}` : ''}`,
    unspecified: rule.unspecified ?? [],
    // spec/rules readings: the sentence, the reading the checks apply, what it warns about.
    readings: (rule.readings ?? []).map((r) => ({ id: r.id, section: r.section ?? rule.section, sentence: r.sentence, reading: r.reading, warns: r.warns ?? '' })),
    row:
      rule.kind === 'error'
        ? { table: rule.table, status: rule.status, reason: rule.reason ?? notShown, message: rule.message ?? notShown, category: rule.category ?? notShown, cause: rule.cause }
        : undefined,
  };
}

function headerLines(h: Record<string, string> | undefined): string {
  return Object.entries(h ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

export function exchangeView(e: Exchange) {
  const r = e.request;
  const res = e.response;
  return {
    attempt: e.attempt,
    durationMs: e.durationMs,
    requestLine: `${r.method} ${r.url}`,
    requestHeaders: headerLines(r.headers),
    requestBody: r.body,
    status: res?.status,
    responseHeaders: res ? headerLines(res.headers) : undefined,
    responseBody: res?.body,
    truncated: !!res?.truncated,
    error: e.error ? `${e.error.code}: ${e.error.message}` : undefined,
    // The ids the request carried: what the implementer searches for in their tracing backend or logs.
    traceId: e.traceId,
    spanId: e.spanId,
    requestId: e.requestId,
  };
}

export function anchorOf(checkId: string): string {
  return `check-${checkId.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}

/** What every check card starts with: its anchor (links land on it), id, title, area and section. */
export function cardHead(c: Pick<CollectedCheck, 'checkId' | 'title' | 'area' | 'section'>) {
  return { anchor: anchorOf(c.checkId), checkId: c.checkId, title: c.title, area: c.area, section: c.section };
}
