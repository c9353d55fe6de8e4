// Warnings from the real checks: what the spec recommends but does not require. A 429 without
// Retry-After (the reference's ratelimit.no-retry-after fault point) and a plain-http target warn;
// the run still exits 0, and only --strict makes the warnings fail it. With Retry-After sent, no
// warning: the warning is not unconditional.
import { describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { startReference } from '../reference/index.ts';
import { unjudgedLines } from '../report/outcome-lines.ts';

async function withReference<T>(opts: Parameters<typeof startReference>[0], fn: (profile: Awaited<ReturnType<typeof startReference>>['profile']) => Promise<T>): Promise<T> {
  const ref = await startReference(opts);
  try {
    return await fn(ref.profile);
  } finally {
    await ref.close();
  }
}

// A short window: the probe reaches 429 at once and the backoff recovers within a second or two.
const RATE = { rateLimit: { perIp: 10, perClient: 10, windowMs: 1000 } };

describe('warnings', () => {
  it('a 429 without Retry-After passes the rate-limit check with a warning', async () => {
    const warned = await withReference({ ...RATE, faults: new Set(['ratelimit.no-retry-after']) }, (profile) =>
      runConformance({ profile, env: {}, checks: ['limits.token.rate-limit'], seed: 1 }),
    );
    expect(warned.results[0].verdict).toBe('pass');
    expect(warned.results[0].warnings?.[0]).toMatch(/^the 429 from the token endpoint carries no Retry-After header/);
    expect(warned.exitCode).toBe(0);
    const sent = await withReference(RATE, (profile) => runConformance({ profile, env: {}, checks: ['limits.token.rate-limit'], seed: 1 }));
    expect(sent.results[0]).toMatchObject({ verdict: 'pass' });
    expect(sent.results[0].warnings).toBeUndefined();
  });

  it('a plain-http target warns; --strict turns the warning into exit 1', async () => {
    await withReference({}, async (profile) => {
      const out = await runConformance({ profile, env: {}, checks: ['limits.transport.tls'], seed: 1 });
      expect(out.results[0]).toMatchObject({ verdict: 'pass', warnings: [expect.stringMatching(/is plain HTTP: section 8 gives HTTPS with TLS 1\.2 or newer/)] });
      expect(out.rules.find((r) => r.id === 'LIMIT-TRANSPORT-TLS')?.reason).toMatch(/^passed with a warning \(limits\.transport\.tls\)/);
      expect(out.summary.warned).toBe(1);
      expect(out.exitCode).toBe(0);
      const strict = await runConformance({ profile, env: {}, checks: ['limits.transport.tls'], seed: 1, strict: true });
      expect(strict.exitCode).toBe(1);
      expect(strict.exitReasons).toEqual(['--strict: 1 check warned']);
    });
  });

  it('an assertion a missing profile field stops is reported as could not judge: the check passes on the rest, exit 0', async () => {
    await withReference({}, async (profile) => {
      const { wallet_id_param: _w, ...without } = profile;
      const out = await runConformance({ profile: without, env: {}, checks: ['users.wallets.read'], seed: 1 });
      expect(out.results[0]).toMatchObject({ verdict: 'pass', unjudged: [{ what: expect.stringMatching(/with a wallet ID answers that wallet/), missing: expect.stringMatching(/^profile\.wallet_id_param/) }] });
      expect(out.exitCode).toBe(0);
      expect(unjudgedLines(out.results, (s) => s)).toEqual([expect.stringMatching(/^Could not judge .*: 1 check$/), expect.stringMatching(/^ {2}users\.wallets\.read: could not judge .* \(missing: profile\.wallet_id_param/)]);
      const full = await runConformance({ profile, env: {}, checks: ['users.wallets.read'], seed: 1 });
      expect(full.results[0].unjudged).toBeUndefined();
    });
  });
});
