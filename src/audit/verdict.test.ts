// The audit's verdict when it judged nothing: no exchange, or exchanges none of which exercised a client
// rule, is INCONCLUSIVE (exit 4) with or without --strict; a broken rule still fails (exit 1) and a
// conforming client's token traffic passes (exit 0).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { tokenTraffic } from './judges/testing.ts';
import { DEFAULT_PLAN } from './plan.ts';
import type { Exchange } from './types.ts';
import { DEFAULT_MIN_EXERCISED, judge } from './verdict.ts';

let model: Model;
beforeAll(async () => {
  model = await loadModel();
});

const verdictOf = (exchanges: Exchange[], strict = false, minExercised?: number) => judge({ model, plan: DEFAULT_PLAN, exchanges, deliveries: [], webhooks: false, strict, stalls: [], ...(minExercised !== undefined ? { minExercised } : {}) });

describe('audit verdict: judged nothing', () => {
  it('no exchange at all: inconclusive, exit 4, --strict too', () => {
    for (const strict of [false, true]) {
      const v = verdictOf([], strict);
      expect(v).toMatchObject({ exitCode: 4, verdict: 'inconclusive' });
      expect(v.inconclusive).toBe('INCONCLUSIVE: the audit judged nothing because no exchange was recorded: no client called base_url or pci_url of the printed profile before the audit ended');
    }
  });

  it('exchanges that exercise no client rule (a path no operation has): inconclusive, naming how many', () => {
    const stray: Exchange = { seq: 1, server: 'api', method: 'GET', path: '/favicon.ico', query: '', headers: {}, bodyText: '', startMs: 1, endMs: 2, status: 404 };
    const v = verdictOf([stray], true);
    expect(v.counts.pass + v.counts.fail + v.counts.warn).toBe(0);
    expect(v).toMatchObject({ exitCode: 4, verdict: 'inconclusive' });
    expect(v.inconclusive).toMatch(/^INCONCLUSIVE: the audit judged nothing because none of the 1 exchange recorded exercised a client rule \(\d+ not exercised, \d+ untestable\)$/);
  });

  it('a judged rule ends it: a client that never backs off fails (exit 1), one that does passes (exit 0)', () => {
    const hammering = verdictOf(tokenTraffic([[0, 0, 0, 0, 0, 0]]).exchanges);
    expect(hammering).toMatchObject({ exitCode: 1, verdict: 'fail' });
    expect(hammering.inconclusive).toBeUndefined();
    // One rule judged (the rest not exercised) is a verdict: the audit judged something.
    const patient = verdictOf(tokenTraffic([[150, 400, 900, 1900, 3900]]).exchanges, true);
    expect(patient.counts).toMatchObject({ pass: 1, fail: 0, warn: 0 });
    expect(patient).toMatchObject({ exitCode: 0, verdict: 'pass' });
    expect(patient.inconclusive).toBeUndefined();
  });

  it('below the floor (--min-exercised): a passing audit of too few rules is inconclusive naming the rules not exercised; a failed rule still fails it', () => {
    // A client that backs off well but showed nothing else: one rule judged, under the default floor.
    const patient = verdictOf(tokenTraffic([[150, 400, 900, 1900, 3900]]).exchanges, true, DEFAULT_MIN_EXERCISED);
    expect(patient.counts.pass).toBe(1);
    expect(patient).toMatchObject({ exitCode: 4, verdict: 'inconclusive' });
    expect(patient.inconclusive).toMatch(new RegExp(`^INCONCLUSIVE: the audit judged nothing because it exercised 1 of \\d+ testable client rules, fewer than the floor of ${DEFAULT_MIN_EXERCISED} \\(--min-exercised\\): not exercised CLIENT-RETRY-AFTER \\(`));
    expect(patient.inconclusive).toContain('CLIENT-TOKEN-CACHE (');
    // The floor met: a verdict. A failure is a finding whatever the floor.
    expect(verdictOf(tokenTraffic([[150, 400, 900, 1900, 3900]]).exchanges, true, 1)).toMatchObject({ exitCode: 0, verdict: 'pass' });
    expect(verdictOf(tokenTraffic([[0, 0, 0, 0, 0, 0]]).exchanges, false, DEFAULT_MIN_EXERCISED)).toMatchObject({ exitCode: 1, verdict: 'fail' });
  });
});
