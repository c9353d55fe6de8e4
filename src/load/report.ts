// Console rendering of a load result (one table), and the JSON file with secrets masked.

import { writeFile } from 'node:fs/promises';
import { ConfigError } from '../errors/index.ts';
import { maskSecrets, type TargetProfile } from '../profile/index.ts';
import type { LoadResult } from './types.ts';
import { errorRate } from './verdict.ts';

const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });

export function renderResult(r: LoadResult): string {
  const c = r.counts;
  const l = r.latency_ms;
  const rows: [string, string][] = [
    ['scenario', `${r.scenario}: ${r.sends}`],
    ['target', r.target],
    ['load', `${r.config.connections} connections, pipelining 1, ${r.config.duration_s} s max, at most ${n(r.config.max_requests)} requests, ${r.config.rate === null ? 'closed loop' : `--rate ${r.config.rate} req/s`}, timeout ${r.config.timeout_ms} ms`],
  ];
  if (r.sources.length > 1) rows.push(['sources', r.sources.map((s) => `${s.machine}@${s.started_at}`).join(', ')]);
  rows.push(
    ['requests', `${n(c.responses)} responses in ${n(r.duration_s)} s = ${n(r.rps)} req/s`],
    ['latency ms', `p50 ${n(l.p50)}  p90 ${n(l.p90)}  p99 ${n(l.p99)}  p99.9 ${n(l.p999)}  max ${n(l.max)}  (${n(l.count)} samples)`],
    ['status', `2xx ${n(c['2xx'])}  429 ${n(c['429'])}  other 4xx ${n(c['4xx'])}  5xx ${n(c['5xx'])}  3xx/other ${n(c['3xx'] + c.other)}  timeouts ${n(c.timeouts)}  transport errors ${n(c.transport_errors)}`],
    ['errors', `${n(c.errors)} of ${n(c.attempts)} attempts (rate ${errorRate(r).toFixed(4)})${Object.keys(c.error_kinds).length ? ` ${JSON.stringify(c.error_kinds)}` : ''}`],
  );
  if (r.contract) {
    rows.push(['429 contract', `${n(r.contract.checked)} checked, ${n(r.contract.violations)} violations (error_category ${r.contract.expected_category}/429); Retry-After on ${n(r.contract.retry_after_present)}`]);
  }
  for (const rec of r.recovery ?? []) {
    const trail = rec.attempts.map((a) => `${a.status}${a.retry_after !== undefined ? `(ra ${a.retry_after})` : ''}`).join(' ');
    rows.push(['recovery', `${rec.recovered ? `backoff client got through after ${n(rec.recovery_ms ?? 0)} ms` : 'NOT recovered'}: ${rec.detail} [${trail}]`]);
  }
  for (const note of r.notes) rows.push(['note', note]);
  rows.push(['verdict', r.verdict.pass ? 'PASS' : `FAIL\n${r.verdict.reasons.map((x) => `${' '.repeat(15)}- ${x}`).join('\n')}`]);
  return `${rows.map(([k, v]) => `${k.padEnd(13)}  ${v}`).join('\n')}\n`;
}

export async function writeResult(file: string, r: LoadResult, profile?: Partial<TargetProfile>, secrets: string[] = []): Promise<void> {
  const text = maskSecrets(`${JSON.stringify(r, null, 2)}\n`, profile, secrets);
  try {
    await writeFile(file, text);
  } catch (err) {
    throw new ConfigError(`load: cannot write ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}
