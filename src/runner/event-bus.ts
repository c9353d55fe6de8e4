// Reporters see the run's events one at a time, in emission order, although checks run concurrently
// and a reporter may be async (a file writer, an OTLP exporter). A reporter that throws does not stop
// the others; the first error surfaces when the run drains the bus.

import type { Reporter, RunEvent } from '../events/index.ts';

export class EventBus {
  private chain: Promise<void> = Promise.resolve();
  private error: unknown;
  constructor(private readonly reporters: Reporter[]) {}
  emit(event: RunEvent): void {
    for (const r of this.reporters) {
      this.chain = this.chain.then(() => r.onEvent(event)).catch((err) => {
        this.error ??= err;
      });
    }
  }
  async drain(): Promise<void> {
    await this.chain;
    if (this.error) throw this.error;
  }
}
