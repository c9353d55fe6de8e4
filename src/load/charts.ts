// Chart geometry for the HTML load report, computed here as plain numbers so the template only
// places them in inline SVG (no script, no network). Log scales, so one stall among thousands of
// fast responses stays visible.

import type { Histogram } from 'hdr-histogram-js';
import { decodeHistogram } from './histogram.ts';
import type { TimelinePoint } from './timeline.ts';

export const W = 640;
export const H = 180;
const PAD = { l: 56, r: 12, t: 10, b: 28 };
const plotW = W - PAD.l - PAD.r;
const plotH = H - PAD.t - PAD.b;

export interface Bar {
  x: number;
  y: number;
  w: number;
  h: number;
  title: string;
}
export interface Tick {
  x: number;
  y: number;
  label: string;
  /** SVG text-anchor: the last x label ends at the plot edge instead of overflowing it. */
  anchor?: 'start' | 'middle' | 'end';
}

function edgeAnchors(ticks: Tick[]): Tick[] {
  return ticks.map((t, i) => ({ ...t, anchor: i === ticks.length - 1 && ticks.length > 1 ? 'end' : 'middle' }));
}
export interface Chart {
  /** The timeout budget as a dashed reference line, when it falls inside the plot. */
  budget?: { x1: number; y1: number; x2: number; y2: number; label: string };
  bars: Bar[];
  points: string;
  xTicks: Tick[];
  yTicks: Tick[];
  empty: boolean;
}

const fmtMs = (ms: number) => (ms >= 1000 ? `${+(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : ms >= 1 ? `${+ms.toFixed(ms >= 10 ? 0 : 1)} ms` : `${Math.round(ms * 1000)} us`);
const none = (): Chart => ({ bars: [], points: '', xTicks: [], yTicks: [], empty: true });

function eachValue(h: Histogram, f: (us: number, count: number) => void): void {
  const it = (h as unknown as { recordedValuesIterator: { reset(): void; hasNext(): boolean; next(): { valueIteratedTo: number; countAtValueIteratedTo: number } } }).recordedValuesIterator;
  it.reset();
  while (it.hasNext()) {
    const v = it.next();
    f(v.valueIteratedTo, v.countAtValueIteratedTo);
  }
}

/** Latency histogram: log-spaced latency bins (8 per decade), bar height on a log count scale. */
export function latencyHistogram(data: string, budgetMs?: number): Chart {
  const h = decodeHistogram(data);
  if (h.totalCount === 0) return none();
  const per = 8;
  const lo = Math.floor(Math.log10(Math.max(1, h.minNonZeroValue)));
  const hi = Math.ceil(Math.log10(Math.max(10, h.maxValue + 1)));
  const n = (hi - lo) * per;
  const counts = new Array<number>(n).fill(0);
  eachValue(h, (us, c) => {
    const i = Math.min(n - 1, Math.max(0, Math.floor((Math.log10(Math.max(1, us)) - lo) * per)));
    counts[i] += c;
  });
  const maxLog = Math.log10(1 + Math.max(...counts));
  const bw = plotW / n;
  const bars = counts.flatMap((c, i) => {
    if (!c) return [];
    const bh = Math.max(2, (Math.log10(1 + c) / maxLog) * plotH);
    const from = 10 ** (lo + i / per) / 1000;
    const to = 10 ** (lo + (i + 1) / per) / 1000;
    return [{ x: PAD.l + i * bw, y: PAD.t + plotH - bh, w: Math.max(1, bw - 1), h: bh, title: `${fmtMs(from)} - ${fmtMs(to)}: ${c}` }];
  });
  const xTicks = Array.from({ length: hi - lo + 1 }, (_, d) => ({ x: PAD.l + d * per * bw, y: H - 8, label: fmtMs(10 ** (lo + d) / 1000) }));
  const yTicks = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000].filter((c) => Math.log10(1 + c) <= maxLog + 1e-9).map((c) => ({ x: PAD.l - 4, y: PAD.t + plotH - (Math.log10(1 + c) / maxLog) * plotH, label: String(c) }));
  let budget: Chart['budget'];
  if (budgetMs !== undefined) {
    const x = PAD.l + (Math.log10(budgetMs * 1000) - lo) * per * bw;
    if (x >= PAD.l && x <= PAD.l + plotW) budget = { x1: x, y1: PAD.t, x2: x, y2: PAD.t + plotH, label: `budget ${fmtMs(budgetMs)}` };
  }
  return { bars, points: '', xTicks: edgeAnchors(xTicks), yTicks, empty: false, ...(budget ? { budget } : {}) };
}

const PCTS = [0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 96, 97, 98, 99, 99.5, 99.9, 99.95, 99.99, 99.999, 100];

/** Percentile curve: x = number of nines (-log10(1 - p)), y = latency on a log scale. */
export function percentileCurve(data: string, budgetMs?: number): Chart {
  const h = decodeHistogram(data);
  if (h.totalCount === 0) return none();
  const nines = Math.min(5, Math.max(2, Math.ceil(Math.log10(h.totalCount))));
  const pts = PCTS.filter((p) => p === 100 || -Math.log10(1 - p / 100) <= nines).map((p) => ({ p, x: p === 100 ? nines : -Math.log10(1 - p / 100), ms: h.getValueAtPercentile(p) / 1000 }));
  const yLo = Math.floor(Math.log10(Math.max(0.001, Math.min(...pts.map((q) => q.ms)))));
  const yHi = Math.ceil(Math.log10(Math.max(0.01, ...pts.map((q) => q.ms), budgetMs ?? 0)) + 1e-9);
  const span = Math.max(1, yHi - yLo);
  const X = (x: number) => PAD.l + (x / nines) * plotW;
  const Y = (ms: number) => PAD.t + plotH - ((Math.log10(Math.max(0.001, ms)) - yLo) / span) * plotH;
  const points = pts.map((q) => `${X(q.x).toFixed(1)},${Y(q.ms).toFixed(1)}`).join(' ');
  const xTicks = Array.from({ length: nines + 1 }, (_, k) => ({ x: X(k), y: H - 8, label: k === 0 ? 'p0' : `p${(100 - 100 / 10 ** k).toFixed(Math.max(0, k - 2))}` }));
  const yTicks = Array.from({ length: span + 1 }, (_, k) => ({ x: PAD.l - 4, y: Y(10 ** (yLo + k)), label: fmtMs(10 ** (yLo + k)) }));
  const bars = pts.map((q) => ({ x: X(q.x) - 2, y: Y(q.ms) - 2, w: 4, h: 4, title: `p${q.p}: ${fmtMs(q.ms)}` }));
  const budget = budgetMs !== undefined ? { x1: PAD.l, y1: Y(budgetMs), x2: PAD.l + plotW, y2: Y(budgetMs), label: `budget ${fmtMs(budgetMs)}` } : undefined;
  return { bars, points, xTicks: edgeAnchors(xTicks), yTicks, empty: false, ...(budget ? { budget } : {}) };
}

/** One bar per second of the timeline. */
export function perSecond(points: TimelinePoint[], value: (p: TimelinePoint) => number, unit: (v: number) => string, logScale = false): Chart {
  if (!points.length) return none();
  const vals = points.map(value);
  const max = Math.max(...vals, logScale ? 1 : 1e-9);
  const scale = (v: number) => (logScale ? Math.log10(1 + v) / Math.log10(1 + max) : v / max);
  const bw = plotW / points.length;
  const bars = points.map((p, i) => {
    const bh = vals[i] > 0 ? Math.max(1, scale(vals[i]) * plotH) : 0;
    return { x: PAD.l + i * bw, y: PAD.t + plotH - bh, w: Math.max(1, bw - 1), h: bh, title: `${p.t}-${p.t + 1} s: ${unit(vals[i])}` };
  });
  const step = Math.max(1, Math.ceil(points.length / 10));
  const xTicks = points.filter((_, i) => i % step === 0).map((p, k) => ({ x: PAD.l + k * step * bw, y: H - 8, label: `${p.t} s` }));
  const yTicks = [0, 0.5, 1].map((f) => ({ x: PAD.l - 4, y: PAD.t + plotH - f * plotH, label: unit(logScale ? 10 ** (f * Math.log10(1 + max)) - 1 : f * max) }));
  return { bars, points: '', xTicks, yTicks, empty: false };
}

export const fmt = { ms: fmtMs };
export const GEOMETRY = { W, H, PAD, plotW, plotH };
