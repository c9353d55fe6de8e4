// The client audit on a host whose event loop stalls (src/audit/loaded-host.test.ts), on a thread of its
// own. The loop blocks for STALL_MS right after each of the later 429s of every judged token burst, and
// it must be the loop of this one audit and its client: two audits on one loop see each other's stalls
// land on their requests at other places than the 4th to the 7th 429 of a burst, and a client that
// retries at once then passed (CI, when the two ran at once in one thread). A worker thread has its own
// loop, so the two audits run side by side without touching each other's timing.

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { auditMode } from '../../src/audit/bank/index.ts';
import type { RuleOutcome } from '../../src/audit/index.ts';
import { DEFAULT_PLAN } from '../../src/audit/plan.ts';
import { loadModel } from '../../src/model/index.ts';

export const STALL_MS = 400;
/** The plan's judged bursts (after the short first one) and the 429s without Retry-After before them. */
const [first, ...judged] = DEFAULT_PLAN.token_bursts;
const BURST = judged[0].length;
const BEFORE = first.length - (first.retry_after_seconds === undefined ? 0 : 1);
const FINISH = 'http.server.response.finish';

/** Blocks the loop STALL_MS after the later 429s of each judged token burst (those without Retry-After), at most 40 times. */
function stallAfterLater429s(tokenPath: string): () => void {
  let seen = -BEFORE;
  const onFinish = (msg: unknown) => {
    const res = (msg as { response: ServerResponse }).response;
    if (res.statusCode !== 429 || res.req?.url !== tokenPath || res.getHeader('retry-after') !== undefined || seen >= 40) return;
    const k = seen++;
    if (k < 0 || k % BURST < 3) return;
    setImmediate(() => {
      const end = Date.now() + STALL_MS;
      while (Date.now() < end);
    });
  };
  subscribe(FINISH, onFinish);
  return () => unsubscribe(FINISH, onFinish);
}

export type StalledMode = 'no-backoff' | 'none';

export interface StalledAudit {
  /** The audit's CLIENT-TOKEN-BACKOFF outcome. */
  rule: RuleOutcome;
  /** Stalls of about STALL_MS the audit recorded. */
  stalls: number;
}

/** Audits the sample client in `mode` on this thread's loop, stalled as above. */
export async function backoffUnderStalls(mode: StalledMode): Promise<StalledAudit> {
  const stop = stallAfterLater429s((await loadModel()).operation('createToken').path);
  try {
    const r = await auditMode(mode);
    return { rule: r.verdict.rules.find((x) => x.id === 'CLIENT-TOKEN-BACKOFF')!, stalls: r.verdict.stalls.filter((s) => s.toMs - s.fromMs >= STALL_MS - 50).length };
  } finally {
    stop();
  }
}

/** backoffUnderStalls(mode) in a worker thread of its own (sources through tsx, as the selftest's workers). */
export function backoffUnderStallsInThread(mode: StalledMode): Promise<StalledAudit> {
  const here = import.meta.url;
  const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(here).resolve('tsx/package.json'))).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(here)}); }).then((m) => m.runInThread());`;
  const worker = new Worker(code, { eval: true, workerData: { mode } });
  return new Promise<StalledAudit>((resolve, reject) => {
    worker.once('message', (msg: { audit: StalledAudit } | { error: string }) => {
      if ('audit' in msg) resolve(msg.audit);
      else reject(new Error(`stalled audit (${mode}): ${msg.error}`));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`stalled audit (${mode}): its thread exited with code ${code} before it answered`)));
  });
}

/** The worker thread's side of backoffUnderStallsInThread. */
export async function runInThread(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('runInThread runs only in a worker thread');
  try {
    port.postMessage({ audit: await backoffUnderStalls((workerData as { mode: StalledMode }).mode) });
  } catch (err) {
    port.postMessage({ error: err instanceof Error ? err.stack ?? err.message : String(err) });
  }
}
