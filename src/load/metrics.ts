// `--metrics-port N`: Prometheus exposition of a load run while it runs (prom-client), where
// performance engineers already look: requests by operation and status, latency histograms per
// operation, requests in flight, late sends (open model), conformance findings by rule. The figures
// are fed by the engine per settled request, so the last scrape of a run equals its result.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ConfigError } from '../errors/index.ts';

/** Latency buckets (s): 1 ms .. the 30 s budget of section 8. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface LoadMetrics {
  registry: Registry;
  /** What the engine keeps current. */
  live: { inFlight: number; late: number };
  settled(op: string, status: number, us: number, kind: 'status' | 'timeout' | 'transport' | 'incomplete'): void;
  finding(rule: string, op: string): void;
}

export function loadMetrics(): LoadMetrics {
  const registry = new Registry();
  const live = { inFlight: 0, late: 0 };
  const requests = new Counter({ name: 'baas_load_requests_total', help: 'Settled requests by operation and outcome (HTTP status, or timeout, transport_error, incomplete)', labelNames: ['operation', 'status'], registers: [registry] });
  const latency = new Histogram({ name: 'baas_load_request_duration_seconds', help: 'Latency by operation (open model: from the intended send time)', labelNames: ['operation'], buckets: BUCKETS, registers: [registry] });
  new Gauge({
    name: 'baas_load_in_flight',
    help: 'Requests sent and not yet settled',
    registers: [registry],
    collect() {
      this.set(live.inFlight);
    },
  });
  let lateSeen = 0;
  new Counter({
    name: 'baas_load_late_sends_total',
    help: 'Open model: sends more than 1 ms after their intended time (charged to latency)',
    registers: [registry],
    collect() {
      if (live.late > lateSeen) this.inc(live.late - lateSeen);
      lateSeen = live.late;
    },
  });
  const findings = new Counter({ name: 'baas_load_conformance_findings_total', help: 'Answers that break a rule every answer is held to, by rule and operation', labelNames: ['rule', 'operation'], registers: [registry] });
  const outcome = { timeout: 'timeout', transport: 'transport_error', incomplete: 'incomplete' } as const;
  return {
    registry,
    live,
    settled(op, status, us, kind) {
      requests.inc({ operation: op, status: kind === 'status' ? String(status) : outcome[kind] });
      latency.observe({ operation: op }, us / 1e6);
    },
    finding(rule, op) {
      findings.inc({ rule, operation: op });
    },
  };
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/** Serves GET /metrics on host:port (port 0: any free port; the url says which). */
export async function serveMetrics(m: LoadMetrics, port: number, host = '127.0.0.1'): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('GET /metrics\n');
      return;
    }
    m.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': m.registry.contentType }).end(text),
      (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err.message)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new ConfigError(`load: --metrics-port ${port}: cannot listen on ${host}:${port} (${err.code ?? err.message})`)));
    server.listen(port, host, resolve);
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}/metrics`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
