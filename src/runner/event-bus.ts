// Reporters see the run's events one at a time, in emission order, although checks run concurrently
// and a reporter may be async (a file writer, an OTLP exporter). A reporter that throws does not stop
// the others; the first error surfaces when the run drains the bus. Reporters that answer at once (the
// collectors behind results.json, junit.xml and report.html, the console) get each event at once:
// chaining two promises per event and reporter was thousands of promises a run for nothing. Only once
// a reporter hands back a promise do the events after it wait in line behind it.

import type { Reporter, RunEvent } from '../events/index.ts';

export class EventBus {
  /** The deliveries still waiting on an async reporter; undefined when none is. */
  private tail: Promise<void> | undefined;
  private error: unknown;
  constructor(private readonly reporters: Reporter[]) {}

  emit(event: RunEvent): void {
    const later = this.tail ? this.tail.then(() => this.deliver(event, 0)) : this.deliver(event, 0);
    if (!later) return;
    this.tail = later;
    void later.then(() => {
      if (this.tail === later) this.tail = undefined;
    });
  }

  async drain(): Promise<void> {
    while (this.tail) await this.tail;
    if (this.error) throw this.error;
  }

  /** Delivers `event` from reporter `from` on; a promise when a reporter went async (the rest follow it). */
  private deliver(event: RunEvent, from: number): Promise<void> | undefined {
    for (let i = from; i < this.reporters.length; i++) {
      let answer: void | Promise<void>;
      try {
        answer = this.reporters[i].onEvent(event);
      } catch (err) {
        this.error ??= err;
        continue;
      }
      if (answer && typeof (answer as Promise<void>).then === 'function') {
        return Promise.resolve(answer).then(
          () => this.deliver(event, i + 1),
          (err: unknown) => {
            this.error ??= err;
            return this.deliver(event, i + 1);
          },
        );
      }
    }
    return undefined;
  }
}
