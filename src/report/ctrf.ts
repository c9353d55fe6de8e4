// CTRF JSON (Common Test Report Format, ctrf.io; schema vendored in spec/schemas/vendor/ctrf.schema.json):
// one test per check, its rules as tags and labels. CTRF has no "blocked": a blocked check fails the run
// (exit 1), so it is `failed` with rawStatus "blocked" and the blocking operation as its message, and a
// dashboard counts the same failures as the exit code. No secrets: the same masked texts as junit.xml.

import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { RunCollector, type CollectedCheck } from './collect.ts';
import { FileReporter } from './file-reporter.ts';
import { blockedText, failureText } from './junit.ts';

/** The CTRF specification version this writer follows (the vendored schema's). */
export const CTRF_SPEC_VERSION = '1.0.0';

const STATUS = { pass: 'passed', fail: 'failed', blocked: 'failed', skip: 'skipped' } as const;

function test(c: CollectedCheck) {
  const message = c.verdict === 'fail' ? c.failure?.message : c.verdict === 'blocked' ? `blocked by ${c.blocked?.operation}: ${c.blocked?.message}` : c.verdict === 'skip' ? c.reason : undefined;
  const trace = c.verdict === 'fail' ? failureText(c) : c.verdict === 'blocked' ? blockedText(c) : undefined;
  return {
    testId: c.checkId,
    name: c.checkId,
    status: STATUS[c.verdict],
    rawStatus: c.verdict,
    duration: Math.max(0, Math.round(c.durationMs)),
    suite: [c.area],
    type: 'conformance',
    tags: c.rules,
    labels: { section: c.section, title: c.title, ...(c.rules.length > 0 ? { rules: c.rules } : {}) },
    parameters: { seed: c.seed },
    ...(message !== undefined ? { message } : {}),
    ...(trace !== undefined ? { trace } : {}),
    ...(c.warnings?.length ? { extra: { warnings: c.warnings } } : {}),
  };
}

export function buildCtrf(col: RunCollector): object {
  const { started, checks, finishedAt } = col.run;
  const tests = checks.map(test);
  const count = (s: string) => tests.filter((t) => t.status === s).length;
  const start = started ? Date.parse(started.startedAt) : 0;
  const stop = finishedAt ? Date.parse(finishedAt) : start;
  const tool = { name: TOOL_NAME, version: started?.toolVersion ?? TOOL_VERSION };
  return {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    ...(started ? { runId: started.runId } : {}),
    ...(finishedAt ? { timestamp: finishedAt } : {}),
    generatedBy: `${tool.name} ${tool.version}`,
    results: {
      tool,
      summary: { tests: tests.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped'), pending: 0, other: 0, start, stop, duration: Math.max(0, stop - start) },
      tests,
      environment: {
        ...(started ? { testEnvironment: started.targetName, extra: { baseUrl: started.target, seed: started.seed, safe: started.safe, ...(started.shard ? { shard: started.shard } : {}) } } : {}),
      },
    },
  };
}

export class CtrfReporter extends FileReporter {
  constructor(path: string) {
    super(path, (collected) => `${JSON.stringify(buildCtrf(collected), null, 2)}\n`);
  }
}
