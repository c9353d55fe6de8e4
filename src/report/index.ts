// Reporters: console, results.json, JUnit XML, self-contained HTML, HAR, OTLP spans. They consume events only.
import type { Reporter } from '../events/index.ts';
import { ConsoleReporter, type ConsoleReporterOptions } from './console.ts';
import { HtmlReporter } from './html.ts';
import { JsonReporter } from './json.ts';
import { CtrfReporter } from './ctrf.ts';
import { AllureReporter } from './allure.ts';
import { JunitReporter } from './junit.ts';
import { HarReporter } from './har.ts';
import { OtlpReporter } from './otlp.ts';

export { ConsoleReporter, type ConsoleReporterOptions } from './console.ts';
export { JsonReporter, buildResults } from './json.ts';
export { JunitReporter, buildJunit } from './junit.ts';
export { CtrfReporter, buildCtrf, CTRF_SPEC_VERSION } from './ctrf.ts';
export { AllureReporter, buildAllure, ALLURE_DEFAULTS } from './allure.ts';
export { HtmlReporter, buildHtml } from './html.ts';
export { HarReporter, buildHar, HAR_DEFAULTS, type Har, type HarEntry } from './har.ts';
export { OtlpReporter, OTLP_DEFAULTS } from './otlp.ts';
export { buildSelftestHtml, writeSelftestReport, SELFTEST_FILES } from './html-selftest.ts';
export { pageTemplate, cspFor } from './html-template.ts';
export { RunCollector, publicUrl } from './collect.ts';
export { replayCommand, DEFAULT_REPLAY_BASE } from './replay.ts';
export { xmlEscape } from './xml.ts';

export interface ReporterSelection {
  /** true (default options), false, or console options. */
  console?: boolean | ConsoleReporterOptions;
  json?: string;
  junit?: string;
  html?: string;
  /** CTRF JSON (run --report ctrf). */
  ctrf?: string;
  /** Allure results directory (run --report allure). */
  allure?: string;
  /** HAR 1.2 file of every exchange (run --har). */
  har?: string;
  /** OTLP/HTTP traces endpoint (run --otlp), and where export problems are told. */
  otlp?: { url: string; onProblem?: (message: string) => void };
  /** Command prefix for replay lines in console and HTML output. */
  replayBase?: string;
}

export function createReporters(sel: ReporterSelection): Reporter[] {
  const out: Reporter[] = [];
  if (sel.console) out.push(new ConsoleReporter({ replayBase: sel.replayBase, ...(typeof sel.console === 'object' ? sel.console : {}) }));
  if (sel.json) out.push(new JsonReporter(sel.json));
  if (sel.junit) out.push(new JunitReporter(sel.junit));
  if (sel.html) out.push(new HtmlReporter(sel.html, sel.replayBase));
  if (sel.ctrf) out.push(new CtrfReporter(sel.ctrf));
  if (sel.allure) out.push(new AllureReporter(sel.allure));
  if (sel.har) out.push(new HarReporter(sel.har));
  if (sel.otlp) out.push(new OtlpReporter(sel.otlp.url, sel.otlp.onProblem));
  return out;
}
