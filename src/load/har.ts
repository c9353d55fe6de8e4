// `load --har FILE`: the exchanges a load run kept (the first few answers per rule that broke a rule
// every answer is held to; src/load/judge.ts) as HAR 1.2, built by src/report/har.ts. A load keeps no
// headers (memory stays flat over millions of requests), so entries have none; bodies were redacted
// by the judge, and the profile's secrets are masked again here.

import type { Exchange } from '../events/index.ts';
import { maskSecrets } from '../profile/mask.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { harEntry, type Har } from '../report/har.ts';
import { writeReport } from '../report/files.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import type { LoadResult } from './types.ts';

export function buildLoadHar(result: LoadResult, profile?: ResolvedProfile): Har {
  const mask = (t: string) => maskSecrets(t, profile);
  const t0 = Date.parse(result.started_at);
  const check = `load.${result.scenario}`;
  const base = result.target.replace(/\/$/, '');
  const entries = Object.entries(result.conformance?.exchanges ?? {}).flatMap(([rule, list]) =>
    list.map((x) => {
      const [method, ...rest] = x.request.split(' ');
      const exchange: Exchange = {
        checkId: check,
        request: { method, url: mask(`${base}${rest.join(' ')}`), headers: {}, ...(x.request_body !== undefined ? { body: mask(x.request_body) } : {}) },
        response: { status: x.status, headers: x.content_type ? { 'content-type': x.content_type } : {}, body: mask(x.response_body) },
        durationMs: 0,
        attempt: 1,
        curl: '',
      };
      const entry = harEntry({ exchange, startedDateTime: new Date(t0 + x.at_ms).toISOString() }, { rules: [rule], verdict: 'fail' });
      return { ...entry, comment: mask(x.detail) };
    }),
  );
  entries.sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  return { log: { version: '1.2', creator: { name: TOOL_NAME, version: TOOL_VERSION }, entries, comment: `load ${result.scenario}: the answers kept as evidence of a broken rule (at most a few per rule)` } };
}

export async function writeLoadHar(file: string, result: LoadResult, profile?: ResolvedProfile): Promise<void> {
  await writeReport(file, `${JSON.stringify(buildLoadHar(result, profile), null, 2)}\n`);
}
