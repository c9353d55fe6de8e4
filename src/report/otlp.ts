// `--otlp URL`: the run as OpenTelemetry spans, exported over OTLP/HTTP by the OpenTelemetry JS SDK
// (otlp-spans.ts). This front loads the SDK only when a reporter is made, so a run without --otlp never
// loads it; events that arrive while it loads wait in order with the time they came, so span times are
// the events' own.

import type { Reporter, RunEvent } from '../events/index.ts';
import type { OtlpSpans } from './otlp-spans.ts';

export const OTLP_DEFAULTS = {
  /** Per export request: a collector that does not answer must not hold the run's end. */
  timeoutMs: 10_000,
  /** Spans sent per export request. */
  batch: 512,
  /** Spans kept: a long run must not hold an unbounded list. */
  maxSpans: 50_000,
} as const;

export class OtlpReporter implements Reporter {
  private spans?: OtlpSpans;
  private readonly waiting: { e: RunEvent; at: number }[] = [];
  private readonly ready: Promise<void>;

  constructor(url: string, onProblem: (message: string) => void = () => undefined) {
    this.ready = import('./otlp-spans.ts').then(({ OtlpSpans: Spans }) => {
      const spans = new Spans(url, onProblem);
      for (const w of this.waiting.splice(0)) spans.onEvent(w.e, w.at);
      this.spans = spans;
    });
    // Seen by close(); never an unhandled rejection before it.
    this.ready.catch(() => undefined);
  }

  onEvent(e: RunEvent): void {
    if (this.spans) this.spans.onEvent(e, Date.now());
    else this.waiting.push({ e, at: Date.now() });
  }

  /** Exports the kept spans; a collector that refuses or is down is reported, never fails the run. */
  async close(): Promise<void> {
    await this.ready;
    await this.spans!.close();
  }
}
