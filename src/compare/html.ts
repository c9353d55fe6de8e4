// The compare page (reports/compare.html.hbs, partial compare-differences): same template machinery,
// CSP and escaping as the run report (src/report/html-template.ts). Every target-sent text (a failure
// message, a field name, a value) is a `{{value}}`: escaped, never markup.

import { pageTemplate } from '../report/index.ts';
import type { CompareResult, DifferenceKind, StepDifference } from './types.ts';

const CHANGE: Record<DifferenceKind, string> = {
  status: 'status code',
  'only-a': 'only in A',
  'only-b': 'only in B',
  type: 'JSON type',
  value: 'value',
  emptiness: 'list empty in one',
  body: 'body',
};

const rows = (list: StepDifference[]) => list.map((d) => ({ ...d, change: CHANGE[d.kind], a: d.a ?? '–', b: d.b ?? '–' }));

export function buildCompareView(r: CompareResult, replay: string) {
  const label = (t: CompareResult['targets']['a']) => (t.name ? `${t.name} (${t.baseUrl})` : t.baseUrl);
  const a = { ...r.targets.a, side: 'A', label: label(r.targets.a) };
  const b = { ...r.targets.b, side: 'B', label: label(r.targets.b) };
  return {
    ...r,
    a,
    b,
    replay,
    targets: [a, b],
    rules: r.verdicts.rules,
    checks: r.verdicts.checks.map((c) => ({ ...c, steps: rows(c.steps) })),
    specified: rows(r.specified),
    silent: rows(r.silent),
    tool: r.tool.name,
    version: r.tool.version,
  };
}

export function buildCompareHtml(r: CompareResult, replay: string): string {
  return pageTemplate('compare', ['base', 'report']).render(buildCompareView(r, replay));
}
