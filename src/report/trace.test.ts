import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { describeErrors, validatorFor } from '../baseline/schemas.ts';
import type { CheckResult, Exchange } from '../events/index.ts';
import { startReference } from '../reference/index.ts';
import { HtmlReporter, JsonReporter, JunitReporter } from './index.ts';

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'baas-trace-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('trace and span ids in the reports', () => {
  it('results.json records them on every exchange; the HTML failure card and JUnit name the failing exchange\'s ids', async () => {
    // A faulty target (token response without token_type), so there is a failure card to read.
    const ref = await startReference({ faults: new Set(['token.missing-token-type']) });
    const paths = { json: join(dir, 'results.json'), junit: join(dir, 'junit.xml'), html: join(dir, 'report.html') };
    try {
      const out = await runConformance({
        profile: ref.profile,
        env: {},
        seed: 3,
        checks: ['auth.s2s.token-response', 'errors.token.client-id-missing'],
        reporters: [new JsonReporter(paths.json), new JunitReporter(paths.junit), new HtmlReporter(paths.html)],
      });
      expect(out.exitCode).toBe(1);
    } finally {
      await ref.close();
    }
    const results = JSON.parse(await readFile(paths.json, 'utf8')) as { checks: (CheckResult & { exchanges?: Exchange[] })[] };
    const validate = validatorFor('results.schema.json');
    expect(validate(results), describeErrors(validate.errors)).toBe(true);
    const failed = results.checks.find((c) => c.checkId === 'auth.s2s.token-response')!;
    expect(failed.verdict).toBe('fail');
    const exchanges = failed.exchanges ?? [];
    expect(exchanges.length).toBeGreaterThan(0);
    for (const e of exchanges) {
      expect(e.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(e.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(e.request.headers.traceparent).toBe(`00-${e.traceId}-${e.spanId}-01`);
      expect(e.request.headers['x-request-id']).toBe(e.requestId);
      // The recorded curl is for a replay: a new request, not this attempt's span again.
      expect(e.curl).not.toContain('traceparent');
    }
    expect(new Set(exchanges.map((e) => e.traceId)).size).toBe(1);
    expect(new Set(exchanges.map((e) => e.spanId)).size).toBe(exchanges.length);
    const broke = failed.failure!.exchange!;
    expect(broke.traceId).toBe(exchanges[0].traceId);

    const junit = await readFile(paths.junit, 'utf8');
    expect(junit).toContain(`trace: ${broke.traceId} span: ${broke.spanId} x-request-id: ${broke.requestId}`);
    const html = await readFile(paths.html, 'utf8');
    expect(html).toContain(`trace <code>${broke.traceId}</code> span <code>${broke.spanId}</code> X-Request-Id <code>${broke.requestId}</code>`);
    // The replay command in the card does not resend the recorded ids.
    const curls = [...html.matchAll(/<pre class="curl">([\s\S]*?)<\/pre>/g)].map((m) => m[1]);
    expect(curls.length).toBeGreaterThan(0);
    for (const c of curls) expect(c).not.toMatch(/traceparent|x-request-id/i);
  });
});
