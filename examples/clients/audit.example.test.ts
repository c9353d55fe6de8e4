// A partner's integration test: run your client against `startAudit()` and fail the build when it
// breaks a client rule of the spec. (In your project: import { startAudit } from 'baas-conform'.)
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSampleClient, startAudit, type Audit } from '../../src/index.ts';

let audit: Audit;
beforeAll(async () => {
  audit = await startAudit({ strict: true }); // recommendations (token cache, timeout, ...) count too
});
afterAll(() => audit.close());

it('our client follows the client rules of the Partner API spec', async () => {
  // Point your client at audit.profile: base_url, pci_url, credentials, chain_id, and the scaled
  // request timeout and token refresh buffer the audit judges against. (Here: the toolkit's sample
  // client, long enough for two token renewals.)
  await runSampleClient(audit.profile, { durationMs: 22_000 });
  const verdict = await audit.verdict();
  const broken = verdict.rules.filter((r) => r.outcome === 'fail' || r.outcome === 'warn');
  expect(broken.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  expect(verdict.exitCode).toBe(0);
}, 90_000);
