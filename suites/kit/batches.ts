// Independent requests of one check sent at once, judged as a sequential run judges them. Across a
// WAN every request a check sends after the previous answer costs a round trip (issue 32): a check
// whose cases do not depend on each other (one request per operation, per identity form) sends them in
// bounded batches, and judges the answers in the listed order, so the failure reported is the one the
// sequential loop reported first. Dependent steps stay in order inside one part.

/** Requests of one check in flight at once: bounded, so a check does not crowd the run's other checks. */
export const PROBE_BATCH = 4;

/**
 * Sends `send(item)` for every item, at most `size` at once, and after each batch judges the answers
 * in the listed order (`judge` throws to fail). A failure stops before the next batch: at most
 * size - 1 requests more than the sequential loop sent. The count is bounded by `items`; every
 * request is bounded in time by the HTTP client's own budget.
 */
export async function inBatches<T, R>(
  items: readonly T[],
  send: (item: T, index: number) => Promise<R>,
  judge: (item: T, answer: R, index: number) => void,
  size = PROBE_BATCH,
): Promise<void> {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`inBatches: size must be a positive integer, got ${size}`);
  for (let start = 0; start < items.length; start += size) {
    const batch = items.slice(start, start + size);
    const settled = await Promise.allSettled(batch.map((item, j) => send(item, start + j)));
    for (const [j, s] of settled.entries()) {
      // A request that threw (transport) is reported where the sequential loop would have met it.
      if (s.status === 'rejected') throw s.reason;
      judge(batch[j], s.value, start + j);
    }
  }
}

/**
 * Runs independent parts of one check at once and reports as if they ran one after another: every
 * part is awaited, then the first failure in the listed order is rethrown. The parts share nothing a
 * conforming target would let one change for another (the caller's claim, said where it is called).
 */
export async function allInOrder<T extends readonly (() => Promise<unknown>)[]>(...parts: T): Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  const settled = await Promise.allSettled(parts.map((p) => p()));
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as { [K in keyof T]: Awaited<ReturnType<T[K]>> };
}
