import { describe, expect, it } from 'vitest';
import { runPartnerFlow } from './bank/index.ts';
import { describeErrors, validatorFor } from '../baseline/schemas.ts';
import { AUDIT_HAR_CHECK, buildAuditHar } from './har.ts';
import { startAudit } from './index.ts';

const QUIET = { token_bursts: [], retry_after: [], other_burst: null, stall: null, scale: { token_lifetime_seconds: 30, refresh_buffer_seconds: 5 } };

/** The sample client in `mode` against an audit; its HAR. */
async function auditHar(mode: 'none' | 'no-chain-header') {
  const audit = await startAudit({ plan: QUIET });
  try {
    await runPartnerFlow(audit.profile, { mode, durationMs: 0 });
    const verdict = await audit.verdict();
    return { verdict, har: buildAuditHar(verdict, audit.profile), secret: audit.profile.credentials.client_secret };
  } finally {
    await audit.close();
  }
}

describe('audit --har', () => {
  it('writes every call of the audited client as valid HAR 1.2, each with the client rules judged on it, no secret', async () => {
    const { verdict, har, secret } = await auditHar('none');
    const validate = validatorFor('har.schema.json');
    expect(validate(har), describeErrors(validate.errors)).toBe(true);
    expect(har.log.entries).toHaveLength(verdict.exchanges.length);
    expect(har.log.entries.every((e) => e._check === AUDIT_HAR_CHECK)).toBe(true);
    const judged = har.log.entries.filter((e) => e._rules.length);
    expect(judged.length).toBeGreaterThan(0);
    expect(new Set(judged.map((e) => e._verdict))).toEqual(new Set(['pass']));
    const text = JSON.stringify(har);
    expect(text.includes(secret)).toBe(false);
    expect(text).not.toMatch(/eyJ[A-Za-z0-9_-]{4,}\./);
  });

  it('marks the calls that broke a rule with fail and the rule (a client that never sends the chain header)', async () => {
    const { har } = await auditHar('no-chain-header');
    const failing = har.log.entries.filter((e) => e._verdict === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.some((e) => e._rules.includes('CLIENT-CHAIN-HEADER'))).toBe(true);
  });
});
