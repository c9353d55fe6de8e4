// The selftest kill-matrix page (reports/selftest.html.hbs): faulty variants grouped by the rule
// they break with the checks that caught each, benign variants and the baseline with their false
// positives, and the checks each run skipped. Same CSP and escaping as the run report.

import { join } from 'node:path';
import type { Model } from '../model/types.ts';
import type { SelftestResult, VariantOutcome } from '../mutants/selftest.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { writeReport } from './files.ts';
import { pageTemplate } from './html-template.ts';
import { findRule, ruleLine } from './html-parts.ts';

export const SELFTEST_FILES = { html: 'selftest.html', json: 'selftest.json' } as const;

const NOT_CREDITED: Record<string, string | undefined> = {
  'rules-not-named': 'not credited: the assertion did not name the rule',
  'fails-on-baseline': 'not credited: fails on the baseline too',
  blocked: 'not credited: blocked by a failed setup step',
};

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function status(o: VariantOutcome): { text: string; cls: string } {
  if (o.error) return { text: 'error', cls: 'fail' };
  if (o.kind === 'faulty') return o.ok ? { text: 'caught', cls: 'pass' } : { text: 'not caught', cls: 'fail' };
  return o.ok ? { text: 'clean', cls: 'pass' } : { text: 'false positive', cls: 'fail' };
}

function variantRow(o: VariantOutcome, broken?: string) {
  const caught = new Set(o.caughtBy);
  const s = status(o);
  return {
    id: o.id,
    kind: o.kind,
    description: o.description,
    status: s.text,
    cls: s.cls,
    item: o.ok ? 'is-pass' : 'is-fail',
    caughtBy: o.failing.filter((f) => caught.has(f.checkId)).map((f) => ({ checkId: f.checkId, message: f.message })),
    // Failing checks not credited with the kill, and why (another rule, unnamed, blocked, fails on the baseline).
    otherFailing: o.failing
      .filter((f) => !caught.has(f.checkId))
      .map((f) => ({ checkId: f.checkId, rules: f.rules.join(', '), message: f.message, cause: f.cause, notCredited: NOT_CREDITED[o.notCredited?.find((n) => n.checkId === f.checkId)?.reason ?? ''] })),
    passed: o.passed,
    failed: o.failing.length,
    skipped: o.skipped,
    newlySkipped: o.newlySkipped,
    skippedChecks: o.skippedChecks,
    error: o.error,
    duration: secs(o.durationMs),
    broken,
  };
}

export function buildSelftestView(r: SelftestResult, model?: Model) {
  const faulty = r.variants.filter((v) => v.kind === 'faulty');
  const benign = r.variants.filter((v) => v.kind === 'benign');
  const ruleIds = [...new Set(faulty.flatMap((v) => v.breaks))];
  const byRule = ruleIds
    .map((id) => {
      const variants = faulty.filter((v) => v.breaks.includes(id));
      const m = findRule(model, id);
      return {
        id,
        section: m?.section ?? '',
        summary: ruleLine(m),
        caught: variants.filter((v) => v.ok).length,
        total: variants.length,
        item: variants.every((v) => v.ok) ? 'is-pass' : 'is-fail',
        variants: variants.map((v) => variantRow(v, id)),
      };
    })
    .sort((a, b) => (Number(a.section.split('.')[0]) || 0) - (Number(b.section.split('.')[0]) || 0) || a.id.localeCompare(b.id));
  const rows = [r.baseline, ...r.variants];
  return {
    tool: TOOL_NAME,
    version: TOOL_VERSION,
    seed: r.seed,
    timeoutBudgetMs: r.timeoutBudgetMs,
    concurrency: r.concurrency,
    checks: r.checks,
    duration: secs(r.durationMs),
    exitCode: r.exitCode,
    score: r.score,
    counts: {
      variants: r.variants.length,
      faulty: faulty.length,
      benign: benign.length,
      uncaught: r.uncaught.length,
      falsePositives: r.falsePositives.length,
      newlySkipped: rows.filter((o) => o.newlySkipped.length > 0).length,
    },
    defaultFailed: r.exitCode !== 0,
    baseline: variantRow(r.baseline),
    byRule,
    benign: [r.baseline, ...benign].map((v) => variantRow(v)),
    falsePositives: r.falsePositives,
    caughtOnlyByOtherRules: r.caughtOnlyByOtherRules,
    skips: rows.map((o) => ({ id: o.id, kind: o.kind, skipped: o.skipped, newlySkipped: o.newlySkipped, item: o.newlySkipped.length ? 'is-fail' : 'is-pass' })),
  };
}

export function buildSelftestHtml(r: SelftestResult, model?: Model): string {
  return pageTemplate('selftest', ['base', 'report']).render(buildSelftestView(r, model));
}

/** Writes selftest.html and selftest.json into `dir`; returns their paths. */
export async function writeSelftestReport(dir: string, r: SelftestResult, model?: Model): Promise<{ html: string; json: string }> {
  const paths = { html: join(dir, SELFTEST_FILES.html), json: join(dir, SELFTEST_FILES.json) };
  await writeReport(paths.json, `${JSON.stringify(r, null, 2)}\n`);
  await writeReport(paths.html, buildSelftestHtml(r, model));
  return paths;
}
