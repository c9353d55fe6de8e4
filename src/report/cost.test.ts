import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { describeErrors, validatorFor } from '../baseline/schemas.ts';
import type { CheckResult } from '../events/index.ts';
import { startReference } from '../reference/index.ts';
import { requestCost, requestCosts } from './cost.ts';
import { HtmlReporter, JsonReporter } from './index.ts';

let dir: string;
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'baas-cost-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

const result = (checkId: string, verdict: CheckResult['verdict'], requests: number, rules: string[]) => ({ checkId, verdict, requests, rules });

describe('requests per rule exercised', () => {
  it('a judged check divides by its rules; a skipped or blocked one exercised none; the costliest per rule come first', () => {
    expect(requestCost(result('a', 'pass', 10, ['R1', 'R2', 'R3']))).toEqual({ checkId: 'a', requests: 10, rulesExercised: 3, requestsPerRule: 3.3 });
    expect(requestCost(result('b', 'fail', 7, ['R1']))).toMatchObject({ rulesExercised: 1, requestsPerRule: 7 });
    expect(requestCost(result('c', 'blocked', 4, ['R1', 'R2']))).toMatchObject({ rulesExercised: 0, requestsPerRule: 4 });
    expect(requestCost(result('d', 'skip', 0, ['R1']))).toMatchObject({ rulesExercised: 0, requestsPerRule: 0 });
    const order = requestCosts([result('a', 'pass', 10, ['R1', 'R2']), result('b', 'pass', 20, ['R1', 'R2', 'R3', 'R4']), result('c', 'pass', 9, ['R1'])]).map((c) => c.checkId);
    // c: 9 per rule; a and b: 5 per rule, b has more requests.
    expect(order).toEqual(['c', 'b', 'a']);
  });

  it('results.json lists every check\'s cost from its own counts, and report.html shows the costliest', async () => {
    const ref = await startReference();
    const paths = { json: join(dir, 'results.json'), html: join(dir, 'report.html') };
    const checks = ['auth.s2s.token-response', 'errors.token.client-id-missing'];
    try {
      const out = await runConformance({ profile: ref.profile, env: {}, seed: 5, checks, reporters: [new JsonReporter(paths.json), new HtmlReporter(paths.html)] });
      expect(out.exitCode).toBe(0);
    } finally {
      await ref.close();
    }
    const results = JSON.parse(await readFile(paths.json, 'utf8')) as { checks: CheckResult[]; costs: ReturnType<typeof requestCosts> };
    const validate = validatorFor('results.schema.json');
    expect(validate(results), describeErrors(validate.errors)).toBe(true);
    expect(results.costs.map((c) => c.checkId).sort()).toEqual([...checks].sort());
    for (const c of results.checks) {
      const cost = results.costs.find((x) => x.checkId === c.checkId)!;
      expect(c.requests).toBeGreaterThan(0);
      expect(cost).toEqual({ checkId: c.checkId, requests: c.requests, rulesExercised: c.rules.length, requestsPerRule: Math.round((c.requests / c.rules.length) * 10) / 10 });
    }
    const html = await readFile(paths.html, 'utf8');
    expect(html).toContain('id="request-costs"');
    for (const id of checks) expect(html).toContain(`data-cost="${id}"`);
  });
});
