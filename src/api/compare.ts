// runCompareMode: the same seeded checks against two targets, the differences, and compare.json and
// compare.html. `baas-conform compare` is this function plus flag parsing and the exit code.

import { join, resolve } from 'node:path';
import { buildCompareHtml, compareTargets, formatCompare, type CompareOptions, type CompareResult } from '../compare/index.ts';
import { writeReport } from '../report/files.ts';

export { compareTargets, formatCompare, type CompareOptions, type CompareResult } from '../compare/index.ts';

/** The files compare writes, in the report directory unless given. */
export const COMPARE_FILES = { json: 'compare.json', html: 'compare.html' } as const;

export interface CompareModeOptions extends CompareOptions {
  /** Where compare.json and compare.html go unless `jsonOut` or `html` say. */
  reportDir: string;
  jsonOut?: string;
  html?: string;
  /** The command that replays this comparison (quoted in compare.html), given the seed the runs used. */
  replay: (seed: number) => string;
}

export interface CompareModeResult {
  result: CompareResult;
  files: { json: string; html: string };
}

/** The differences as the CLI prints them. */
export const renderCompare = (result: CompareResult): string => `${formatCompare(result).join('\n')}\n`;

/** Runs both sides and writes the two reports. */
export async function runCompareMode(options: CompareModeOptions): Promise<CompareModeResult> {
  const { reportDir, jsonOut, html, replay, ...compare } = options;
  const cwd = compare.cwd ?? process.cwd();
  const files = { json: resolve(cwd, jsonOut ?? join(reportDir, COMPARE_FILES.json)), html: resolve(cwd, html ?? join(reportDir, COMPARE_FILES.html)) };
  const result = await compareTargets(compare);
  await writeReport(files.json, `${JSON.stringify(result, null, 2)}\n`);
  await writeReport(files.html, buildCompareHtml(result, replay(result.seed)));
  return { result, files };
}
