// Selftest worker thread: runs variants by id on its own event loop, so a selftest uses every core
// (one process runs the reference servers and the engine on one thread). Variants are rebuilt here
// from the registry: they hold functions, which cannot cross a thread boundary.

import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { loadModel } from '../model/index.ts';
import { ALL_SETS, buildMutantBank } from './registry.ts';
import { runVariant, type RunContext, type RunRaw } from './run-variant.ts';

export interface WorkerInit {
  seed: number;
  timeoutBudgetMs: number;
  checkConcurrency: number;
  propertyBatch?: number;
  profile: RunContext['profile'];
  rateLimit?: RunContext['rateLimit'];
  allChecks?: boolean;
  /** Nice value of this thread (Linux only: per thread there; elsewhere it would lower the whole process). */
  nice?: number;
}

/** Parent -> worker: run one variant (null: the baseline). */
export interface WorkerTask {
  task: number;
  variantId: string | null;
}

/** Worker -> parent: the run, or why the worker could not do it. */
export type WorkerReply = { task: number; raw: RunRaw } | { task: number; error: string } | { ready: true };

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('worker.ts runs only as a worker thread');
  const init = workerData as WorkerInit;
  if (init.nice && process.platform === 'linux') {
    try {
      setPriority(0, init.nice);
    } catch {
      // Not allowed here: the thread keeps the process's priority, which only costs time.
    }
  }
  const { loadChecks } = await import('../../suites/index.ts');
  const ctx: RunContext = { ...init, checks: await loadChecks(), model: await loadModel() };
  const bank = new Map(buildMutantBank(ALL_SETS).map((v) => [v.id, v]));
  port.on('message', (msg: WorkerTask | 'close') => {
    if (msg === 'close') return void port.close();
    void (async () => {
      const variant = msg.variantId === null ? undefined : bank.get(msg.variantId);
      if (msg.variantId !== null && !variant) return port.postMessage({ task: msg.task, error: `unknown variant ${msg.variantId}` } satisfies WorkerReply);
      port.postMessage({ task: msg.task, raw: await runVariant(variant, ctx) } satisfies WorkerReply);
    })().catch((err) => port.postMessage({ task: msg.task, error: String((err as Error)?.stack ?? err) } satisfies WorkerReply));
  });
  port.postMessage({ ready: true } satisfies WorkerReply);
}

void main();
