import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import type { Exchange } from '../events/index.ts';
import { OtlpReporter } from './otlp.ts';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string; arrayValue?: { values: { stringValue?: string }[] } } }[];
  links?: { traceId: string; spanId: string }[];
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** An OTLP/HTTP (JSON) traces receiver on loopback: every span it is sent. */
async function receiver(): Promise<{ url: string; spans: OtlpSpan[]; contentTypes: string[] }> {
  const spans: OtlpSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d)).on('end', () => {
      contentTypes.push(String(req.headers['content-type']));
      const doc = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans, contentTypes };
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v?.arrayValue ? v.arrayValue.values.map((x) => x.stringValue) : (v?.stringValue ?? v?.intValue);
};

describe('run --otlp: the run as OpenTelemetry spans', () => {
  it('a run span, a span per check (root of its trace, linked to the run) and a span per request parented to its check, with the ids the requests carried', async () => {
    const otlp = await receiver();
    const exchanges: Exchange[] = [];
    const problems: string[] = [];
    const out = await runConformance({
      seed: 8,
      checks: ['errors.token.*', 'schema.get-config'],
      reporters: [new OtlpReporter(otlp.url, (m) => problems.push(m))],
      onEvent: (e) => void (e.type === 'exchange' && exchanges.push(e.exchange)),
    });
    expect(problems).toEqual([]);
    expect(otlp.contentTypes[0]).toContain('application/json');
    const runs = otlp.spans.filter((s) => s.name === 'baas-conform run');
    expect(runs).toHaveLength(1);
    const run = runs[0];
    expect(run.parentSpanId ?? '').toBe('');
    const checks = otlp.spans.filter((s) => s.name.startsWith('check '));
    expect(checks.map((c) => attr(c, 'baas.check')).sort()).toEqual(out.results.map((r) => r.checkId).sort());
    for (const c of checks) {
      expect(c.parentSpanId ?? '').toBe('');
      expect(c.links?.map((l) => l.spanId)).toEqual([run.spanId]);
      const result = out.results.find((r) => r.checkId === attr(c, 'baas.check'))!;
      expect(attr(c, 'baas.rules')).toEqual(result.rules);
      expect(attr(c, 'baas.verdict')).toBe(result.verdict);
    }
    const requests = otlp.spans.filter((s) => s !== run && !checks.includes(s));
    expect(requests).toHaveLength(exchanges.length);
    for (const x of exchanges) {
      // The span the request announced in its traceparent is the span exported, under its check's span.
      const span = requests.find((s) => s.spanId === x.spanId);
      expect(span, `no span ${x.spanId} for ${x.request.method} ${x.request.url}`).toBeDefined();
      expect(span!.traceId).toBe(x.traceId);
      const check = checks.find((c) => attr(c, 'baas.check') === x.checkId)!;
      expect(span!.parentSpanId).toBe(check.spanId);
      expect(check.traceId).toBe(x.traceId);
      expect(attr(span!, 'baas.rules')).toEqual(attr(check, 'baas.rules'));
      expect(attr(span!, 'http.request.method')).toBe(x.request.method);
    }
  });

  it('a collector that is down is reported, and the run keeps its verdicts', async () => {
    const gone = await receiver();
    const s = servers.pop()!;
    await new Promise((r) => s.close(r));
    const problems: string[] = [];
    const out = await runConformance({ seed: 8, checks: ['schema.get-config'], reporters: [new OtlpReporter(gone.url, (m) => problems.push(m))] });
    expect(out.exitCode).toBe(0);
    expect(problems.join('\n')).toMatch(/otlp: export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces failed/);
  });
});
