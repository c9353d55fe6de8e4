// The history directory of `run --history DIR`: each run's results.json is copied into DIR/runs under a
// name that sorts by start time, only the newest `keep` are kept, and history.json and history.html are
// rewritten beside them. A CI job keeps DIR between nights (a cache or an artifact).

import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { loadResults } from '../baseline/index.ts';
import { writeReport } from '../report/files.ts';
import { buildHistoryHtml } from './html.ts';
import { HISTORY_DEFAULTS, type HistoryDoc } from './types.ts';

export interface HistoryFiles {
  json: string;
  html: string;
}

/** Writes history.json and history.html into `dir`. */
export async function writeHistory(doc: HistoryDoc, dir: string): Promise<HistoryFiles> {
  const files = { json: join(dir, HISTORY_DEFAULTS.files.json), html: join(dir, HISTORY_DEFAULTS.files.html) };
  await writeReport(files.json, `${JSON.stringify(doc, null, 2)}\n`);
  await writeReport(files.html, buildHistoryHtml(doc));
  return files;
}

const safe = (s: string) => s.replace(/[^\w.-]/g, '-');

/**
 * Copies the results file into DIR/runs (validated first: a foreign file never enters the history),
 * removes all but the newest `keep` runs there, and returns the paths of the runs kept, oldest first.
 */
export async function appendToHistory(dir: string, resultsFile: string, keep: number = HISTORY_DEFAULTS.keep): Promise<string[]> {
  const doc = await loadResults(resultsFile);
  const runsDir = join(dir, HISTORY_DEFAULTS.files.runs);
  await mkdir(runsDir, { recursive: true });
  await copyFile(resultsFile, join(runsDir, `${safe(String(doc.started))}_${safe(String(doc.runId))}.json`));
  const names = (await readdir(runsDir)).filter((n) => n.endsWith('.json')).sort();
  const bound = Math.max(1, Math.floor(keep));
  for (const old of names.slice(0, Math.max(0, names.length - bound))) await rm(join(runsDir, old), { force: true });
  return names.slice(-bound).map((n) => join(runsDir, n));
}
