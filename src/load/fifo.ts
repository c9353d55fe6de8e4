// The open model's backlog of due sends, first in first out: intended send times and requests in a
// ring that doubles when full. It can hold many thousands of entries when the target falls behind,
// so shift is O(1) and an entry is two slots (a time in a Float64Array, the request), not an object:
// a long backlog gives the garbage collector nothing per arrival to copy and promote.

export class ArrivalQueue<R> {
  private at = new Float64Array(1024);
  private reqs: (R | undefined)[] = new Array<R | undefined>(1024).fill(undefined);
  private mask = 1023;
  // Entries shifted and pushed so far: an entry's number (1-based, in push order) is its count at push.
  private head = 0;
  private tail = 0;

  get length(): number {
    return this.tail - this.head;
  }

  /** Number of the entry at the head (1-based, in push order). */
  get headSeq(): number {
    return this.head + 1;
  }

  /** Number of the last entry pushed (0 before any). */
  get lastSeq(): number {
    return this.tail;
  }

  push(req: R, at: number): void {
    if (this.tail - this.head > this.mask) this.grow();
    const i = this.tail % (this.mask + 1);
    this.at[i] = at;
    this.reqs[i] = req;
    this.tail++;
  }

  /** Intended send time of the head entry (call only when length > 0). */
  peekAt(): number {
    return this.at[this.head % (this.mask + 1)];
  }

  /** Removes the head entry and returns its request (call only when length > 0). */
  shift(): R {
    const i = this.head % (this.mask + 1);
    const r = this.reqs[i] as R;
    this.reqs[i] = undefined;
    this.head++;
    return r;
  }

  toArray(): { req: R; at: number }[] {
    const out: { req: R; at: number }[] = [];
    for (let k = this.head; k < this.tail; k++) out.push({ req: this.reqs[k % (this.mask + 1)] as R, at: this.at[k % (this.mask + 1)] });
    return out;
  }

  private grow(): void {
    const size = (this.mask + 1) * 2;
    const at = new Float64Array(size);
    const reqs = new Array<R | undefined>(size).fill(undefined);
    for (let k = this.head; k < this.tail; k++) {
      at[k % size] = this.at[k % (this.mask + 1)];
      reqs[k % size] = this.reqs[k % (this.mask + 1)];
    }
    this.at = at;
    this.reqs = reqs;
    this.mask = size - 1;
  }
}
