// Self-contained HTML report from reports/report.html.hbs. Handlebars escapes every `{{value}}`;
// the template never uses triple-stash, so text from a hostile target (an error message holding
// `<script>`) renders as inert text. A CSP meta tag forbids scripts as a second fence.

import { readFileSync } from 'node:fs';
import { packagePath } from '../package/index.ts';
import Handlebars from 'handlebars';
import type { Exchange, Reporter, RunEvent } from '../events/index.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { RunCollector, type CollectedCheck } from './collect.ts';
import { writeReport } from './files.ts';
import { replayCommand, DEFAULT_REPLAY_BASE } from './replay.ts';

const TEMPLATE_URL = packagePath('reports', 'report.html.hbs');
let compiled: HandlebarsTemplateDelegate | undefined;
function template(): HandlebarsTemplateDelegate {
  // A private instance: helpers or partials registered elsewhere cannot change this output.
  return (compiled ??= Handlebars.create().compile(readFileSync(TEMPLATE_URL, 'utf8'), { strict: false, noEscape: false }));
}

function headerLines(h: Record<string, string>): string {
  return Object.entries(h)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function exchangeView(e: Exchange) {
  const r = e.request;
  const res = e.response;
  return {
    attempt: e.attempt,
    durationMs: e.durationMs,
    request: `${r.method} ${r.url}\n${headerLines(r.headers)}${r.body !== undefined ? `\n\n${r.body}` : ''}`,
    response: res ? `HTTP ${res.status}\n${headerLines(res.headers)}${res.body ? `\n\n${res.body}` : ''}${res.truncated ? '\n… (truncated)' : ''}` : undefined,
    error: e.error ? `${e.error.code}: ${e.error.message}` : undefined,
    curl: e.curl,
  };
}

export function buildHtml(collector: RunCollector, replayBase = DEFAULT_REPLAY_BASE): string {
  const { started, summary, rules, checks, finishedAt } = collector.run;
  const seed = started?.seed ?? 0;
  const failures = checks
    .filter((c) => c.verdict === 'fail')
    .map((c: CollectedCheck) => {
      // The failing exchange first, then the check's other recent exchanges.
      const list = c.exchanges ?? (c.failure?.exchange ? [c.failure.exchange] : []);
      return {
        checkId: c.checkId,
        title: c.title,
        section: c.section,
        rules: (c.failure?.rules ?? c.rules).join(', '),
        message: c.failure?.message,
        cause: c.failure?.cause,
        counterexample: c.failure?.counterexample,
        replay: replayCommand(replayBase, seed, [c.checkId]),
        exchanges: list.map(exchangeView),
      };
    });
  return template()({
    tool: TOOL_NAME,
    version: started?.toolVersion ?? TOOL_VERSION,
    target: started?.target,
    targetName: started?.targetName ?? started?.target,
    seed,
    shard: started?.shard,
    safe: started?.safe,
    started: started?.startedAt,
    finished: finishedAt,
    replay: replayCommand(replayBase, seed),
    summary: summary ?? { rules: {} },
    failures,
    rules,
    checks: checks.map((c) => ({ ...c, detail: c.verdict === 'skip' ? c.reason : c.verdict === 'fail' ? c.failure?.message : '' })),
  });
}

export class HtmlReporter implements Reporter {
  private readonly collector = new RunCollector();
  constructor(
    private readonly path: string,
    private readonly replayBase = DEFAULT_REPLAY_BASE,
  ) {}
  onEvent(e: RunEvent): void {
    this.collector.onEvent(e);
  }
  async close(): Promise<void> {
    await writeReport(this.path, buildHtml(this.collector, this.replayBase));
  }
}
