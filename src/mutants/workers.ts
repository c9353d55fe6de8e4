// A small pool of selftest worker threads (worker.ts). Sources run through tsx in a checkout and
// under vitest; the compiled package runs worker.js with plain node.

import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunRaw } from './run-variant.ts';
import type { WorkerInit, WorkerReply, WorkerTask } from './worker.ts';

export interface WorkerPool {
  /** Runs one variant (null: the baseline) on the least busy worker. */
  run(variantId: string | null): Promise<RunRaw>;
  close(): Promise<void>;
}

function spawn(init: WorkerInit): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./worker.js', here), { workerData: init });
  // A TypeScript source: register tsx's loader in the thread, then import the worker module.
  const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(here).resolve('tsx/package.json'))).href;
  const entry = new URL('./worker.ts', here).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); }).catch((e) => { console.error(e); process.exit(1); });`;
  return new Worker(code, { eval: true, workerData: init });
}

interface Slot {
  worker: Worker;
  busy: number;
  ready: Promise<void>;
  dead?: Error;
}

export async function startWorkerPool(count: number, init: WorkerInit): Promise<WorkerPool> {
  let nextTask = 0;
  const pending = new Map<number, { resolve: (r: RunRaw) => void; reject: (e: Error) => void; slot: Slot }>();
  const slots: Slot[] = Array.from({ length: count }, () => {
    const worker = spawn(init);
    const slot: Slot = { worker, busy: 0, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (msg: WorkerReply) => {
        if ('ready' in msg) return resolve();
        const p = pending.get(msg.task);
        if (!p) return;
        pending.delete(msg.task);
        slot.busy--;
        if ('raw' in msg) p.resolve(msg.raw);
        else p.reject(new Error(`selftest worker: ${msg.error}`));
      });
      const die = (err: Error) => {
        slot.dead ??= err;
        reject(err);
        for (const [task, p] of pending) {
          if (p.slot !== slot) continue;
          pending.delete(task);
          p.reject(err);
        }
      };
      worker.on('error', die);
      worker.on('exit', (code) => die(new Error(`selftest worker exited with code ${code}`)));
    });
    slot.ready.catch(() => undefined);
    return slot;
  });
  await Promise.all(slots.map((s) => s.ready));
  return {
    run(variantId) {
      const live = slots.filter((s) => !s.dead);
      if (live.length === 0) return Promise.reject(slots[0].dead ?? new Error('no selftest worker'));
      const slot = live.reduce((a, b) => (b.busy < a.busy ? b : a));
      const task = nextTask++;
      slot.busy++;
      return new Promise<RunRaw>((resolve, reject) => {
        pending.set(task, { resolve, reject, slot });
        slot.worker.postMessage({ task, variantId } satisfies WorkerTask);
      });
    },
    async close() {
      await Promise.all(slots.filter((s) => !s.dead).map((s) => s.worker.terminate()));
    },
  };
}
