// Warnings from the real checks: what the spec recommends but does not require. A 429 without
// Retry-After (the reference's ratelimit.no-retry-after fault point) and a plain-http target warn;
// the run still exits 0, and only --strict makes the warnings fail it. With Retry-After sent, no
// warning: the warning is not unconditional.
import { describe, expect, it } from 'vitest';
import { runConformance } from '../api/index.ts';
import { startReference } from '../reference/index.ts';

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
});
