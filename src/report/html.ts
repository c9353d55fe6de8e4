// Self-contained HTML run report from reports/report.html.hbs (see html-template.ts for the CSP and
// escaping, html-view.ts for what is shown). Handlebars escapes every `{{value}}`, so text from a
// hostile target (an error message holding `<script>`) renders as inert text, and the CSP forbids
// scripts as a second fence.

import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { RunCollector } from './collect.ts';
import { FileReporter } from './file-reporter.ts';
import { pageTemplate } from './html-template.ts';
import { buildReportView } from './html-view.ts';
import { DEFAULT_REPLAY_BASE } from './replay.ts';

export const REPORT_STYLES = ['base', 'report'];

/**
 * The report page. `model` quotes the rules and builds the replay commands; without it the page
 * still renders (ids instead of quotes, the recorded masked curl instead of the replayable one).
 */
export function buildHtml(collector: RunCollector, replayBase = DEFAULT_REPLAY_BASE, model?: Model): string {
  const view = buildReportView(collector.run, { model, replayBase, tool: TOOL_NAME, version: TOOL_VERSION });
  return pageTemplate('report', REPORT_STYLES).render(view);
}

export class HtmlReporter extends FileReporter {
  constructor(path: string, replayBase = DEFAULT_REPLAY_BASE, model?: Model) {
    // The model is cached per spec directory: loading it here costs nothing after the run loaded it.
    super(path, async (collected) => buildHtml(collected, replayBase, model ?? (await loadModel().catch(() => undefined))));
  }
}
