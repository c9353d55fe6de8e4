// history.html: the run report's template machinery, escaping and hashed CSP (src/report/html-template.ts).
// The trend chart is inline SVG drawn here (rects with classes, no script, no style attribute); the
// rule-by-night grid is a table whose cells are coloured by verdict class, a flapping row marked.

import { pageTemplate } from '../report/index.ts';
import type { HistoryDoc, HistoryRun, Timeline, Verdict } from './types.ts';

const CHART = { bar: 22, gap: 8, height: 140, left: 36, top: 10, bottom: 24 } as const;
const SERIES = ['passed', 'failed', 'blocked', 'skipped'] as const;
const SYMBOL: Record<Verdict, string> = { pass: '✓', fail: '✗', blocked: '■', skip: '–', uncovered: '·', untestable: '·' };

const day = (iso: string) => iso.slice(5, 10);

/** Stacked bars of the check counts per run, scaled to the largest total. */
function chart(runs: HistoryRun[]) {
  const max = Math.max(1, ...runs.map((r) => SERIES.reduce((s, k) => s + r.checks[k], 0)));
  const scale = CHART.height / max;
  const bars = runs.map((r, i) => {
    const x = CHART.left + i * (CHART.bar + CHART.gap);
    let y = CHART.top + CHART.height;
    const parts = SERIES.filter((k) => r.checks[k] > 0).map((k) => {
      const h = Math.max(1, Math.round(r.checks[k] * scale));
      y -= h;
      return { cls: `s-${k}`, x, y, w: CHART.bar, h, label: `${k} ${r.checks[k]}` };
    });
    return { parts, label: { x: x + CHART.bar / 2, y: CHART.top + CHART.height + 16, text: String(i + 1) }, title: `run ${i + 1} (${r.started}, seed ${r.seed}): ${SERIES.map((k) => `${r.checks[k]} ${k}`).join(', ')}` };
  });
  return {
    width: CHART.left + runs.length * (CHART.bar + CHART.gap) + CHART.gap,
    height: CHART.top + CHART.height + CHART.bottom,
    axis: { x: CHART.left - 4, y1: CHART.top, y2: CHART.top + CHART.height, max, maxY: CHART.top + 4, zeroY: CHART.top + CHART.height },
    bars,
  };
}

const order = (t: Timeline) => (t.flapping ? 0 : t.latest === 'fail' || t.latest === 'blocked' ? 1 : t.vsPrevious !== 'same' ? 2 : 3);

function grid(list: Timeline[], runs: HistoryRun[]) {
  return [...list]
    .sort((a, b) => order(a) - order(b) || a.id.localeCompare(b.id))
    .map((t) => ({
      ...t,
      cells: t.verdicts.map((v, i) => ({ cls: v ?? 'absent', symbol: v ? SYMBOL[v] : '', title: `${t.id} · run ${i + 1} (${runs[i].started}): ${v ?? 'absent'}` })),
    }));
}

export function buildHistoryView(h: HistoryDoc) {
  return {
    ...h,
    tool: h.tool.name,
    version: h.tool.version,
    latest: h.runs.at(-1),
    runs: h.runs.map((r, i) => ({ ...r, n: i + 1, day: day(r.started) })),
    chart: chart(h.runs),
    ruleGrid: grid(h.rules, h.runs),
    checkGrid: grid(h.checks, h.runs),
    windowRuns: h.window + 1,
    classified: h.flakes !== undefined,
  };
}

export function buildHistoryHtml(h: HistoryDoc): string {
  return pageTemplate('history', ['base', 'report', 'history']).render(buildHistoryView(h));
}
