// A request budget that counts only time this thread could run. The budget's timer and the answer's
// arrival both wait on this thread's event loop: when the loop cannot run (a machine at load 15 on two
// cores, another run's burst judged on the same thread, as the selftest's variant runs share two
// threads with their reference servers), every request in flight "runs out of time" at once, whatever
// the target did. A sampler measures how late its own timer fires; that lateness is added to the
// budget of the requests in flight during it, up to STALL_CAP times the budget, so a target that
// really does not answer still times out and nothing waits unbounded. An idle loop adds nothing.

/** How often the sampler looks (ms): the resolution of the stall measured. */
const TICK_MS = 50;
/** The longest a budget can grow to, as a multiple of itself. */
export const STALL_CAP = 2;

let stalled = 0;
let last = 0;
let users = 0;
let sampler: NodeJS.Timeout | undefined;

function tick(): void {
  const now = performance.now();
  stalled += Math.max(0, now - last - TICK_MS);
  last = now;
}

/** Milliseconds this thread's loop could not run while the sampler was on, including the stall under way. */
function stalledMs(): number {
  return stalled + (sampler ? Math.max(0, performance.now() - last - TICK_MS) : 0);
}

function acquire(): void {
  if (users++ === 0) {
    last = performance.now();
    // Unref'd: the sampler never holds the process open (a request in flight does that).
    sampler = setInterval(tick, TICK_MS);
    sampler.unref();
  }
}

function release(): void {
  if (--users === 0 && sampler) {
    tick();
    clearInterval(sampler);
    sampler = undefined;
  }
}

/** A pending stall-tolerant timer; clear() stops it (safe to call twice, or after it fired). */
export interface StallTolerantTimer {
  clear(): void;
}

/**
 * Calls `onDue` once `ms` of time this thread could run have passed: wall time minus the stall seen
 * meanwhile, at most STALL_CAP x `ms` of wall time. Unref'd: it never holds the process open.
 */
export function stallTolerantTimer(ms: number, onDue: () => void): StallTolerantTimer {
  acquire();
  const started = performance.now();
  const stalledAtStart = stalledMs();
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const clear = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    release();
  };
  const fire = () => {
    const elapsed = performance.now() - started;
    const due = Math.min(ms * STALL_CAP, ms + (stalledMs() - stalledAtStart));
    if (elapsed + 1 >= due) {
      clear();
      onDue();
    } else {
      timer = setTimeout(fire, due - elapsed);
      timer.unref();
    }
  };
  timer = setTimeout(fire, ms);
  timer.unref();
  return { clear };
}

export interface StallTolerantTimeout extends StallTolerantTimer {
  /** Aborts with a TimeoutError once the budget, plus the stall seen meanwhile, has passed. */
  signal: AbortSignal;
}

/** A timeout of `budgetMs` of time this thread could run, at most STALL_CAP x budgetMs of wall time. */
export function stallTolerantTimeout(budgetMs: number): StallTolerantTimeout {
  const controller = new AbortController();
  const timer = stallTolerantTimer(budgetMs, () => controller.abort(new DOMException(`no answer within ${budgetMs} ms`, 'TimeoutError')));
  return { signal: controller.signal, clear: timer.clear };
}
