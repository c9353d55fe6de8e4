// The selftest's console summary: the kill matrix (one row a variant), the mutation score, rule
// coverage, false positives and skips, as plain text for a terminal or a CI log.
import type { SelftestResult, VariantOutcome } from '../mutants/index.ts';

const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const failingText = (o: VariantOutcome) => o.failing.map((f) => `${f.checkId} [${f.rules.join(',')}]${f.cause ? ` ${f.cause}` : ''}`).join('; ');

function verdictOf(o: VariantOutcome): string {
  if (o.error) return `ERROR: ${o.error}`;
  if (o.kind === 'faulty') {
    if (o.ok) return o.caughtBy.join(', ');
    if (o.failing.length === 0) return 'NOT CAUGHT (no check failed)';
    const why = o.notCredited.map((n) => `${n.checkId}: ${n.reason}`).join('; ');
    return `NOT CAUGHT (${why ? `not credited: ${why}; ` : ''}failing: ${failingText(o)})`;
  }
  return o.failing.length === 0 ? '-' : `FALSE POSITIVE: ${o.failing.map((f) => f.checkId).join(', ')}`;
}

export function formatSelftest(r: SelftestResult): string {
  const rows = [r.baseline, ...r.variants];
  const w = { id: Math.max(7, ...rows.map((o) => o.id.length)), breaks: Math.max(6, ...rows.map((o) => o.breaks.join(',').length)) };
  const lines: string[] = [];
  lines.push(`${'VARIANT'.padEnd(w.id)}  ${'KIND'.padEnd(8)}  ${'BREAKS'.padEnd(w.breaks)}  CAUGHT BY`);
  for (const o of rows) lines.push(`${o.id.padEnd(w.id)}  ${o.kind.padEnd(8)}  ${(o.breaks.join(',') || '-').padEnd(w.breaks)}  ${verdictOf(o)}`);
  lines.push('');
  lines.push(`Baseline: ${r.baseline.passed} passed, ${r.baseline.failing.length} failed or blocked, ${r.baseline.skipped} skipped (${r.checks} checks, ${secs(r.baseline.durationMs)})`);
  lines.push(`Mutation score: ${r.score.caught}/${r.score.faulty} faulty variants caught by a check whose own assertion names the broken rule (${r.score.percent}%)`);
  if (r.uncaught.length) {
    lines.push(`Not caught (${r.uncaught.length}):`);
    for (const id of r.uncaught) {
      const o = r.variants.find((v) => v.id === id)!;
      lines.push(`  ${id} [${o.breaks.join(',')}]: ${verdictOf(o)}`);
    }
  }
  const rc = r.ruleCoverage;
  lines.push(`Mutation coverage by rule: ${rc.caught}/${rc.testable} testable rules broken by a caught faulty variant`);
  const notRun = rc.without.filter((w) => w.why.startsWith('not run here'));
  for (const w of rc.without.filter((x) => !notRun.includes(x))) lines.push(`  ${w.rule}: ${w.why.slice(0, 240)}`);
  if (notRun.length) lines.push(`  ${notRun.length} rules whose variants were not run (a partial bank: --variant/--area)`);
  if (r.hidden.length) {
    lines.push(`Hidden by a missing service (every check of the rule, or every check reaching the fault, skipped or could not judge, under profile ${r.profile}; ${r.profile === 'minimal' ? 'expected here' : 'counts as not caught'}): ${r.hidden.length}`);
    for (const h of r.hidden) lines.push(`  ${h.variant}: ${h.missing.map((m) => m.slice(0, 160)).join('; ')}`);
  }
  if (r.silentlyPassed.length) lines.push(`Silently passed (a check of the rule ran, judged and passed; counts as not caught under every profile): ${r.silentlyPassed.join(', ')}`);
  if (r.caughtOnlyByOtherRules.length) lines.push(`Failing checks but no credited kill (count as not caught): ${r.caughtOnlyByOtherRules.join(', ')}`);
  const benign = r.variants.filter((o) => o.kind === 'benign').length;
  lines.push(`False positives: ${r.falsePositives.length === 0 ? 'none' : r.falsePositives.length} (baseline + ${benign} benign variants)`);
  // A check failing on the baseline fails on most variants too: show it once, then the rest.
  const onBaseline = new Set(r.baseline.failing.map((f) => f.checkId));
  for (const f of r.falsePositives.filter((x) => x.variant === r.baseline.id)) {
    const alsoOn = r.falsePositives.filter((x) => x.variant !== r.baseline.id && x.checkId === f.checkId).length;
    lines.push(`  baseline: ${f.checkId} [${f.rules.join(',')}]${f.cause ? ` ${f.cause}` : ''}: ${f.message.slice(0, 300)}${alsoOn ? ` (also on ${alsoOn} benign variants)` : ''}`);
  }
  if (r.baseline.error) lines.push(`  baseline: could not run: ${r.baseline.error}`);
  for (const f of r.falsePositives.filter((x) => x.variant !== r.baseline.id && !onBaseline.has(x.checkId))) {
    lines.push(`  ${f.variant}: ${f.checkId} [${f.rules.join(',')}]${f.cause ? ` ${f.cause}` : ''}: ${f.message.slice(0, 300)}`);
  }
  // A second run is shown with the time-outs of the first, so a rerun never hides a slow target or check.
  for (const x of r.rerunAfterTimeout ?? []) lines.push(`Run again after running out of time: ${x.id} (${x.ok ? 'scored as it should the second time' : 'still wrong the second time'}; first run: ${x.first.map((f) => `${f.checkId} ${f.cause}`).join(', ')})`);
  // Skips are their own count: neither a pass nor a kill. New skips on a benign variant mean a
  // correct server made a check give up; on a faulty one they may hide the fault.
  lines.push(`Skips: ${r.skips.baseline} on the baseline; ${r.skips.variantsWithNewSkips} variants skipped checks that pass on the baseline${r.skips.benignWithNewSkips.length ? ` (benign: ${r.skips.benignWithNewSkips.join(', ')})` : ''}`);
  for (const o of rows.filter((x) => x.newlySkipped.length > 0)) lines.push(`  ${o.kind === 'benign' ? 'BENIGN ' : ''}${o.id} skipped: ${o.newlySkipped.join(', ')}`);
  lines.push(`Seed ${r.seed}, profile ${r.profile}, timeout budget ${r.timeoutBudgetMs} ms, ${r.concurrency} variants at once on ${r.workers} worker threads, ${secs(r.durationMs)}`);
  return `${lines.join('\n')}\n`;
}
