// The OpenTelemetry SDK side of `--otlp URL` (otlp.ts loads this module only when a run exports spans:
// the SDK and its exporter are a tenth of a second of every CLI start otherwise).
// One span for the run; per check a span that is the root of the check's own trace (the trace id its
// requests carried in traceparent, src/client/trace.ts) and links to the run span; per request a
// span, child of its check, whose span id is the one the request carried, so the target's server
// spans (parented to that id) hang under it in the tracing backend. Rule ids are attributes.
// Spans are built when a check finishes (its trace id is known from its first exchange then), with
// the recorded start and end times; the SDK's IdGenerator hook hands it the recorded ids.

import { context, SpanKind, SpanStatusCode, trace, type Link, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, RandomIdGenerator, type IdGenerator, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { CheckResult, Exchange, RunEvent } from '../events/index.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { publicUrl } from './collect.ts';
import { OTLP_DEFAULTS } from './otlp.ts';

/** Random ids, except the ones queued for the next span: the recorded trace and span ids. */
class RecordedIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  nextTraceId?: string;
  nextSpanId?: string;
  generateTraceId(): string {
    const id = this.nextTraceId ?? this.random.generateTraceId();
    this.nextTraceId = undefined;
    return id;
  }
  generateSpanId(): string {
    const id = this.nextSpanId ?? this.random.generateSpanId();
    this.nextSpanId = undefined;
    return id;
  }
}

/** Keeps ended spans for one export at close, where its result can be reported (a batch processor would only log it). */
class Keep implements SpanProcessor {
  readonly spans: ReadableSpan[] = [];
  dropped = 0;
  constructor(private readonly max: number) {}
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    if (this.spans.length < this.max) this.spans.push(span);
    else this.dropped++;
  }
  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

const ms = (epochMs: number) => new Date(epochMs);

/** Spans of one run; `onEvent` gets each event with the time it was emitted (the front may queue it). */
export class OtlpSpans {
  private readonly ids = new RecordedIds();
  private readonly keep = new Keep(OTLP_DEFAULTS.maxSpans);
  private readonly provider: BasicTracerProvider;
  private readonly exporter: OTLPTraceExporter;
  private run?: Span;
  private readonly started = new Map<string, number>();
  private readonly exchanges = new Map<string, { exchange: Exchange; endMs: number }[]>();

  constructor(
    private readonly url: string,
    private readonly onProblem: (message: string) => void = () => undefined,
  ) {
    this.exporter = new OTLPTraceExporter({ url, timeoutMillis: OTLP_DEFAULTS.timeoutMs });
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': TOOL_NAME, 'service.version': TOOL_VERSION }),
      idGenerator: this.ids,
      spanProcessors: [this.keep],
    });
  }

  private get tracer() {
    return this.provider.getTracer(TOOL_NAME, TOOL_VERSION);
  }

  onEvent(e: RunEvent, nowMs: number): void {
    switch (e.type) {
      case 'run-started':
        this.run = this.tracer.startSpan('baas-conform run', {
          root: true,
          startTime: ms(Date.parse(e.startedAt)),
          attributes: { 'baas.run_id': e.runId, 'baas.seed': e.seed, 'baas.target': publicUrl(e.target), 'baas.checks': e.checks },
        });
        break;
      case 'check-started':
        this.started.set(e.checkId, nowMs);
        this.exchanges.set(e.checkId, []);
        break;
      case 'exchange':
        this.exchanges.get(e.exchange.checkId)?.push({ exchange: e.exchange, endMs: nowMs });
        break;
      case 'check-finished':
        this.checkSpans(e.result, nowMs);
        break;
      case 'run-finished':
        this.run?.setAttributes({ 'baas.passed': e.summary.passed, 'baas.failed': e.summary.failed, 'baas.blocked': e.summary.blocked, 'baas.requests': e.summary.requests });
        if (e.summary.failed + e.summary.blocked > 0) this.run?.setStatus({ code: SpanStatusCode.ERROR, message: `${e.summary.failed} failed, ${e.summary.blocked} blocked` });
        this.run?.end(ms(Date.parse(e.finishedAt)));
        break;
    }
  }

  private checkSpans(r: CheckResult, nowMs: number): void {
    const list = this.exchanges.get(r.checkId) ?? [];
    this.exchanges.delete(r.checkId);
    const links: Link[] = this.run ? [{ context: this.run.spanContext() }] : [];
    this.ids.nextTraceId = list.find((x) => x.exchange.traceId)?.exchange.traceId;
    const check = this.tracer.startSpan(`check ${r.checkId}`, {
      root: true,
      links,
      startTime: ms(this.started.get(r.checkId) ?? nowMs - r.durationMs),
      attributes: { 'baas.check': r.checkId, 'baas.rules': r.rules, 'baas.verdict': r.verdict, 'baas.area': r.area, 'baas.section': r.section, 'baas.seed': r.seed },
    });
    this.started.delete(r.checkId);
    const parent = trace.setSpan(context.active(), check);
    for (const { exchange: x, endMs } of list) {
      this.ids.nextSpanId = x.spanId;
      const span = this.tracer.startSpan(
        `${x.request.method} ${new URL(x.request.url).pathname}`,
        {
          kind: SpanKind.CLIENT,
          startTime: ms(endMs - x.durationMs),
          attributes: {
            'http.request.method': x.request.method,
            'url.full': x.request.url,
            'baas.check': r.checkId,
            'baas.rules': r.rules,
            'baas.attempt': x.attempt,
            ...(x.requestId ? { 'baas.request_id': x.requestId } : {}),
            ...(x.response ? { 'http.response.status_code': x.response.status } : {}),
            ...(x.error ? { 'error.type': x.error.code } : {}),
          },
        },
        parent,
      );
      if (x.error) span.setStatus({ code: SpanStatusCode.ERROR, message: x.error.message });
      span.end(ms(endMs));
    }
    const failedRules = r.failure?.rules ?? r.blocked?.rules;
    if (failedRules) check.setAttribute('baas.failed_rules', failedRules);
    if (r.verdict === 'fail' || r.verdict === 'blocked') check.setStatus({ code: SpanStatusCode.ERROR, message: r.failure?.message ?? r.blocked?.message ?? r.verdict });
    check.end(ms(nowMs));
  }

  /** Exports the kept spans; a collector that refuses or is down is reported, never fails the run. */
  async close(): Promise<void> {
    const spans = this.keep.spans;
    if (this.keep.dropped) this.onProblem(`otlp: ${this.keep.dropped} spans past the ${OTLP_DEFAULTS.maxSpans}-span limit were not exported`);
    try {
      for (let i = 0; i < spans.length; i += OTLP_DEFAULTS.batch) {
        const result = await new Promise<{ code: number; error?: Error }>((r) => this.exporter.export(spans.slice(i, i + OTLP_DEFAULTS.batch), r));
        if (result.code !== 0) {
          this.onProblem(`otlp: export to ${publicUrl(this.url)} failed: ${result.error?.message ?? 'refused'} (the run's verdicts are unaffected)`);
          return;
        }
      }
    } finally {
      await this.exporter.shutdown().catch(() => undefined);
      await this.provider.shutdown().catch(() => undefined);
    }
  }
}
