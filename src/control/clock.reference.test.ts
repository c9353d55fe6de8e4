// A run leaves the sandbox as it found it where it can: the clock it moved (control advanceClock) is
// reset at its end (control resetClock), so a second run against the same reference passes its
// time-based checks too. Before, the reference was left two days ahead and the next run's tokens,
// minted at real time, were already expired there (auth.idp.*, limits.s2s.token-validity failed).
// An adapter without resetClock leaves the clock moved, and the run summary says so and how to reset.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { startReference } from '../reference/index.ts';
import { SCHEMA_FILES, validatorFor } from '../baseline/index.ts';
import { ConsoleReporter, JsonReporter } from '../report/index.ts';

const TIME_CHECKS = ['limits.s2s.token-lifetime', 'states.3ds.expiry', 'limits.s2s.token-validity', 'auth.idp.exchange', 'auth.s2s.token-claims'];
const VALIDITY_S = 172_800;

let reference: Awaited<ReturnType<typeof startReference>>;
beforeAll(async () => {
  reference = await startReference();
});
afterAll(() => reference.close());

/** The reference's clock minus real time, in seconds (control advanceClock by 0 answers `now`). */
async function clockAhead(): Promise<number> {
  const res = await fetch(`${reference.profile.control_url}/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"seconds":0}' });
  const { now } = (await res.json()) as { now: number };
  return now - Date.now() / 1000;
}

describe('the clock a run moved', () => {
  it('is reset at the end of the run, and a second run against the same reference passes its time-based checks', async () => {
    for (const round of [1, 2]) {
      const out = await runConformance({ profile: reference.profile, env: {}, checks: TIME_CHECKS, seed: round });
      expect(out.results.map((r) => [r.checkId, r.verdict, r.failure?.message ?? r.blocked?.message ?? r.reason]).filter(([, v]) => v !== 'pass'), `round ${round}`).toEqual([]);
      expect(Math.abs(await clockAhead()), `round ${round}: the reference clock is back at real time`).toBeLessThan(5);
      expect(out.summary.sandbox?.clock).toMatchObject({ restored: true, message: expect.stringMatching(/was reset to real time \(control resetClock through the profile\.control_url\)/) });
      expect(out.summary.sandbox!.clock!.advancedSeconds).toBeGreaterThan(VALIDITY_S);
      expect(out.exitCode).toBe(0);
    }
  });

  it('an adapter without resetClock leaves it moved, and the summary says by how much and how to reset it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bc-clock-'));
    const file = path.join(dir, 'no-reset.mjs');
    await writeFile(file, `export const operations = {
  async advanceClock(input, { http, profile }) {
    const res = await http.send({ method: 'POST', path: profile.control_url + '/clock/advance', body: input.body });
    return res.json;
  },
};`);
    let text = '';
    try {
      const out = await runConformance({ profile: { ...reference.profile, control_adapter: file }, env: {}, checks: ['limits.s2s.token-lifetime'], seed: 3, reporters: [new ConsoleReporter({ color: false, stream: { write: (s: string) => (text += s) } }), new JsonReporter(path.join(dir, 'results.json'))] });
      expect(out.results[0].verdict).toBe('pass');
      const clock = out.summary.sandbox?.clock;
      expect(clock).toMatchObject({ restored: false, message: expect.stringMatching(/left the target's clock \d+ s ahead .*no-reset\.mjs does not perform resetClock.*map the control operation resetClock in the adapter .*or reset or restart the sandbox/) });
      expect(clock!.advancedSeconds).toBeGreaterThan(VALIDITY_S);
      expect(await clockAhead()).toBeGreaterThan(VALIDITY_S);
      expect(text).toMatch(/Sandbox: the run left the target's clock \d+ s ahead/);
      const doc = JSON.parse(await readFile(path.join(dir, 'results.json'), 'utf8'));
      const validate = validatorFor(SCHEMA_FILES.results);
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      expect(doc.summary.sandbox.clock).toEqual(clock);
    } finally {
      // Undo it here so the next test in this file starts at real time.
      await fetch(`${reference.profile.control_url}/clock/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    }
    expect(Math.abs(await clockAhead())).toBeLessThan(5);
  });
});
