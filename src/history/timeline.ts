// The timeline of every rule and check over the runs, and the history's verdict: exit 1 when the
// latest run regressed against the previous one (or a rule flaps against the reference: a toolkit
// bug), 4 when there is no previous run to compare with, else 0.

import { inconclusive } from '../errors/index.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { isReferenceRun, type LoadedRun } from './load.ts';
import { HISTORY_DEFAULTS, HISTORY_KIND, HISTORY_VERSION, type Change, type ChangeCounts, type HistoryDoc, type Timeline, type Verdict } from './types.ts';

const isBad = (v: Verdict | null) => v === 'fail' || v === 'blocked';
const isJudged = (v: Verdict | null) => v === 'pass' || isBad(v);

/** The latest verdict against earlier judged ones (see Change). */
function changeOf(now: Verdict | null, before: (Verdict | null)[]): Change {
  const judged = before.filter(isJudged);
  if (isBad(now)) {
    if (judged.length === 0) return 'new';
    return judged.every((v) => v === 'pass') ? 'regressed' : 'same';
  }
  if (now === 'pass' && judged.length > 0 && judged.every(isBad)) return 'fixed';
  return 'same';
}

function flipsOf(verdicts: (Verdict | null)[]): number {
  const judged = verdicts.filter(isJudged).map(isBad);
  let flips = 0;
  for (let i = 1; i < judged.length; i++) if (judged[i] !== judged[i - 1]) flips++;
  return flips;
}

function timeline(id: string, verdicts: (Verdict | null)[], window: number): Timeline {
  const last = verdicts.length - 1;
  const latest = verdicts[last] ?? null;
  let runs = 0;
  for (let i = last; i >= 0 && verdicts[i] === latest; i--) runs++;
  const windowed = verdicts.slice(Math.max(0, last - window), last);
  const flips = flipsOf([...windowed, latest]);
  return {
    id,
    verdicts,
    latest,
    streak: { verdict: latest, runs },
    vsPrevious: last > 0 ? changeOf(latest, [verdicts[last - 1]]) : 'same',
    vsWindow: last > 0 ? changeOf(latest, windowed) : 'same',
    flips,
    flapping: flips >= 2,
  };
}

function timelines(runs: LoadedRun[], pick: (r: LoadedRun) => Map<string, Verdict>, window: number): Timeline[] {
  const ids = [...new Set(runs.flatMap((r) => [...pick(r).keys()]))].sort();
  return ids.map((id) => timeline(id, runs.map((r) => pick(r).get(id) ?? null), window));
}

function countOf(list: Timeline[], key: 'vsPrevious' | 'vsWindow'): ChangeCounts {
  const n = (c: Change) => list.filter((t) => t[key] === c).length;
  return { new: n('new'), fixed: n('fixed'), regressed: n('regressed') };
}

export interface HistoryOptions {
  /** Runs before the latest that vsWindow and flapping look at (default HISTORY_DEFAULTS.window). */
  window?: number;
}

/** The history of ordered runs of one target (loadRuns gives them so). */
export function buildHistory(runs: LoadedRun[], opts: HistoryOptions = {}): HistoryDoc {
  const window = Math.max(1, Math.floor(opts.window ?? HISTORY_DEFAULTS.window));
  const rules = timelines(runs, (r) => r.rules, window);
  const checks = timelines(runs, (r) => r.checks, window);
  const reference = runs.length > 0 && runs.every(isReferenceRun);
  const toolkitBugs = reference ? rules.filter((t) => t.flapping).map((t) => t.id) : [];
  const counts = {
    rules: { vsPrevious: countOf(rules, 'vsPrevious'), vsWindow: countOf(rules, 'vsWindow'), flapping: rules.filter((t) => t.flapping).length },
    checks: { vsPrevious: countOf(checks, 'vsPrevious'), vsWindow: countOf(checks, 'vsWindow'), flapping: checks.filter((t) => t.flapping).length },
  };
  const reasons: string[] = [];
  const worse = (c: ChangeCounts) => c.new + c.regressed;
  if (runs.length >= 2 && worse(counts.rules.vsPrevious) + worse(counts.checks.vsPrevious) > 0) {
    reasons.push(`the latest run regressed against the previous one: ${worse(counts.rules.vsPrevious)} rules and ${worse(counts.checks.vsPrevious)} checks newly failing or blocked`);
  }
  if (toolkitBugs.length > 0) reasons.push(`toolkit bug: ${toolkitBugs.length} rules flap against the reference implementation, which does not change between runs (${toolkitBugs.join(', ')})`);
  let code: 0 | 1 | 4 = reasons.length > 0 ? 1 : 0;
  const latest = runs.at(-1)?.run.checks;
  if (runs.length < 2 && code === 0) {
    code = 4;
    reasons.push(inconclusive('history', `it was given ${runs.length} run${runs.length === 1 ? '' : 's'} of the target and needs two to compare`));
  } else if (latest && latest.passed + latest.failed + latest.blocked === 0 && code === 0) {
    // Nothing regressed because nothing was judged: a latest run whose checks all skipped is no green night.
    code = 4;
    reasons.push(inconclusive('history', 'the latest run judged no check (every one skipped)'));
  }
  return {
    kind: HISTORY_KIND,
    version: HISTORY_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    target: { name: runs[0]?.targetName ?? '', reference },
    window,
    runs: runs.map((r) => r.run),
    rules,
    checks,
    counts,
    toolkitBugs,
    exit: { code, reasons },
  };
}
