// Allure results (allure-results/<uuid>-result.json, one per check; the format is described at
// https://allurereport.org/docs/how-it-works-test-result-file/ and pinned by spec/schemas/allure-result.schema.json).
// Mirrors ctrf.ts: one test per check, its rules as `rule` labels and tags, its area as the suite,
// the spec section as a link, the seed as a parameter, the failing exchange's curl line as a step.
// Status: a blocked check is `broken`, not `failed`: Allure's `broken` means the test could not
// reach its own assertion because something else went wrong first, which is exactly a blocked check
// (a prerequisite operation failed, its own rules were not observed). Dashboards keep it apart from
// real failures while it still counts as not green (the run's exit code is 1 either way).
// No secrets: the curl lines are the masked ones of the events, the texts the same as junit.xml.

import { createHash, randomUUID } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Exchange, Reporter, RunEvent, WaiverKind } from '../events/index.ts';
import { RUN_REPORT_DEFAULTS } from '../options/run.ts';
import { TOOL_NAME } from '../runner/version.ts';
import { RunCollector, type CollectedCheck } from './collect.ts';
import { writeReport } from './files.ts';
import { majorSection } from './html-view.ts';
import { blockedText, failureText } from './junit.ts';

export const ALLURE_DEFAULTS = {
  /** The directory Allure reads, inside --report-dir. */
  dir: RUN_REPORT_DEFAULTS.files.allure,
  /** Where a section link points: the spec document's section anchor. */
  specDocument: 'partner-api-spec.md',
} as const;

const STATUS = { pass: 'passed', fail: 'failed', blocked: 'broken', skip: 'skipped' } as const;

/** Stable across runs for one check id, so Allure's history and retries line the nights up. */
function stableId(checkId: string): string {
  return createHash('md5').update(`${TOOL_NAME}:${checkId}`).digest('hex');
}

function exchangeStep(title: string, e: Exchange, status: string, at: number) {
  const response = e.response ? `HTTP ${e.response.status}` : e.error ? `${e.error.code}: ${e.error.message}` : 'no response';
  return {
    name: `${title}: ${e.curl}`,
    status,
    stage: 'finished',
    start: at,
    stop: at + Math.max(0, Math.round(e.durationMs)),
    statusDetails: { message: response, ...(e.response?.body ? { trace: e.response.body } : {}) },
    parameters: [{ name: 'curl', value: e.curl }, { name: 'response', value: response }],
    steps: [],
    attachments: [],
  };
}

function steps(c: CollectedCheck, at: number) {
  if (c.verdict === 'fail') {
    const out = [];
    if (c.failure.counterexample) out.push({ name: `counterexample: ${c.failure.counterexample}`, status: 'failed', stage: 'finished', start: at, stop: at, steps: [], attachments: [], parameters: [] });
    if (c.failure.exchange) out.push(exchangeStep('failing exchange', c.failure.exchange, 'failed', at));
    return out;
  }
  if (c.verdict === 'blocked' && c.blocked.exchange) return [exchangeStep(`blocked by ${c.blocked.operation}`, c.blocked.exchange, 'broken', at)];
  return [];
}

export interface CheckTimes {
  start: number;
  stop: number;
}

/** The Allure test result of one check; `times` are wall-clock ms when the reporter saw them. */
/** Allure's own flags for a failure an expected-failures entry waived: muted for `muted`, known for the others. */
function waiverFlags(kind: WaiverKind | undefined): { known?: true; muted?: true } {
  if (!kind) return {};
  return kind === 'muted' ? { muted: true } : { known: true };
}

export function allureResult(c: CollectedCheck, times: CheckTimes | undefined, runStop: number, uuid: string = randomUUID(), waiver?: WaiverKind) {
  const stop = times?.stop ?? runStop;
  const start = times?.start ?? stop - Math.max(0, Math.round(c.durationMs));
  const message = c.verdict === 'fail' ? c.failure.message : c.verdict === 'blocked' ? `blocked by ${c.blocked.operation}: ${c.blocked.message}` : c.verdict === 'skip' ? c.reason : undefined;
  const trace = c.verdict === 'fail' ? failureText(c) : c.verdict === 'blocked' ? blockedText(c) : undefined;
  const section = majorSection(c.section);
  return {
    uuid,
    historyId: stableId(c.checkId),
    testCaseId: stableId(c.checkId),
    name: c.title,
    fullName: `${TOOL_NAME}.${c.area}.${c.checkId}`,
    status: STATUS[c.verdict],
    statusDetails: { ...waiverFlags(waiver), ...(message !== undefined ? { message } : {}), ...(trace !== undefined ? { trace } : {}) },
    stage: 'finished',
    start,
    stop: Math.max(start, stop),
    labels: [
      { name: 'suite', value: c.area },
      { name: 'framework', value: TOOL_NAME },
      { name: 'section', value: c.section },
      ...c.rules.map((r) => ({ name: 'rule', value: r })),
      ...c.rules.map((r) => ({ name: 'tag', value: r })),
    ],
    links: [{ type: 'link', name: `section ${c.section}`, url: `${ALLURE_DEFAULTS.specDocument}#section-${section}` }],
    parameters: [{ name: 'seed', value: String(c.seed) }],
    steps: steps(c, start),
    attachments: [],
    ...(c.warnings?.length ? { description: c.warnings.map((w) => `WARN: ${w}`).join('\n') } : {}),
  };
}

export function buildAllure(col: RunCollector, times: ReadonlyMap<string, CheckTimes> = new Map()): ReturnType<typeof allureResult>[] {
  const { started, finishedAt } = col.run;
  const runStop = finishedAt ? Date.parse(finishedAt) : started ? Date.parse(started.startedAt) : 0;
  const waived = new Map(col.run.expected?.waived.map((w) => [w.check, w.kind ?? 'known'] as const));
  return col.run.checks.map((c) => allureResult(c, times.get(c.checkId), runStop, randomUUID(), waived.get(c.checkId)));
}

/** Writes `<dir>/<uuid>-result.json` for each check of the run. */
export class AllureReporter implements Reporter {
  private readonly collector = new RunCollector();
  private readonly times = new Map<string, CheckTimes>();
  constructor(private readonly dir: string) {}
  onEvent(e: RunEvent): void {
    this.collector.onEvent(e);
    if (e.type === 'check-started') this.times.set(e.checkId, { start: Date.now(), stop: Date.now() });
    if (e.type === 'check-finished') {
      const t = this.times.get(e.result.checkId);
      if (t) t.stop = Date.now();
    }
  }
  async close(): Promise<void> {
    // A results directory is read whole: results of an earlier run left in it would be shown as this run's.
    const old = await readdir(this.dir).catch(() => [] as string[]);
    for (const f of old.filter((n) => n.endsWith('-result.json'))) await rm(join(this.dir, f), { force: true });
    for (const r of buildAllure(this.collector, this.times)) await writeReport(join(this.dir, `${r.uuid}-result.json`), `${JSON.stringify(r, null, 2)}\n`);
  }
}
