// `audit --har FILE`: the calls the audited client made, as HAR 1.2 (src/report/har.ts builds the
// entries). Each entry names the client rules judged on it (_rules) and the worst of their outcomes
// (_verdict); _check is `client-audit`. The record is already redacted (redact.ts: tokens named by
// number, the client secret replaced); the profile's secret is masked again as a second fence.

import type { Exchange as RecordedExchange } from '../events/index.ts';
import { maskSecrets } from '../profile/mask.ts';
import { harEntry, type Har, type HarEntry } from '../report/har.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { writeReport } from '../report/files.ts';
import type { AuditProfile, AuditVerdict, Exchange, RuleOutcome } from './types.ts';

export const AUDIT_HAR_CHECK = 'client-audit';

/** Worst first: the entry's verdict is the first of these any rule judged on it reached. */
const SEVERITY: [RuleOutcome['outcome'], HarEntry['_verdict']][] = [['fail', 'fail'], ['warn', 'warn'], ['pass', 'pass']];

function recorded(ex: Exchange, profile: AuditProfile, mask: (t: string) => string): RecordedExchange {
  const base = ex.server === 'pci' ? profile.pci_url : profile.base_url;
  const out: RecordedExchange = {
    checkId: AUDIT_HAR_CHECK,
    request: { method: ex.method, url: mask(`${base}${ex.path}${ex.query ? `?${ex.query.replace(/^\?/, '')}` : ''}`), headers: Object.fromEntries(Object.entries(ex.headers).map(([k, v]) => [k, mask(v)])), ...(ex.bodyText ? { body: mask(ex.bodyText) } : {}) },
    durationMs: Math.max(0, (ex.endMs ?? ex.abandonedMs ?? ex.startMs) - ex.startMs),
    attempt: 1,
    curl: '',
  };
  if (ex.status !== undefined) {
    const body = ex.responseBody === undefined ? undefined : mask(typeof ex.responseBody === 'string' ? ex.responseBody : JSON.stringify(ex.responseBody));
    out.response = { status: ex.status, headers: body === undefined ? {} : { 'content-type': 'application/json' }, ...(body !== undefined ? { body } : {}) };
  } else out.error = { code: ex.abandonedMs ? 'ABANDONED' : 'NO_ANSWER', message: ex.abandonedMs ? 'the client closed the connection before the answer' : 'no answer was sent' };
  return out;
}

export function buildAuditHar(v: AuditVerdict, profile: AuditProfile): Har {
  const mask = (t: string) => maskSecrets(t, { clients: [{ client_id: profile.credentials.client_id, client_secret: profile.credentials.client_secret }] });
  const judged = new Map<number, RuleOutcome[]>();
  for (const r of v.rules) for (const seq of r.exchanges) (judged.get(seq) ?? judged.set(seq, []).get(seq)!).push(r);
  const entries = v.exchanges.map((ex) => {
    const rules = judged.get(ex.seq) ?? [];
    const verdict = SEVERITY.find(([o]) => rules.some((r) => r.outcome === o))?.[1] ?? 'not-judged';
    return harEntry({ exchange: recorded(ex, profile, mask), startedDateTime: new Date(ex.startMs).toISOString() }, { rules: rules.map((r) => r.id), verdict });
  });
  const comment = `client audit${v.dropped ? `; ${v.dropped} later exchanges were not recorded` : ''}`;
  return { log: { version: '1.2', creator: { name: TOOL_NAME, version: TOOL_VERSION }, entries, comment } };
}

export async function writeAuditHar(v: AuditVerdict, profile: AuditProfile, file: string): Promise<void> {
  await writeReport(file, `${JSON.stringify(buildAuditHar(v, profile), null, 2)}\n`);
}
