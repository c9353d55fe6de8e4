// Real provider tokens (profile.idp.tokens) on a target that trusts a provider the engine has no key
// of: the exchange and the header-missing rows run with them; the rows that forge tokens skip, naming
// what would unlock them; tokens of a provider the target does not trust fail the exchange.

import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import { startTestIdp, type TestIdp } from '../../src/idp/index.ts';
import { startReference, type ReferenceServer } from '../../src/reference/index.ts';

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function tokensOf(p: TestIdp) {
  const who = p.newIdentity();
  return { access_token: await p.accessToken({ sub: who.sub }), identity_token: await p.identityToken({ ...who }) };
}

describe('real provider tokens without a trusted engine key', () => {
  it('run the exchange and header-missing rows; forging rows skip; an untrusted provider fails', async () => {
    // A target whose repeated retail registration is refused (the spec does not show that answer).
    let refuseRegistration = false;
    const ref: ReferenceServer = await startReference({
      transform: (req, res) => (refuseRegistration && req.operationId === 'registerRetailUser' ? { ...res, status: 409, body: '{"error_reason":"ErrorAlreadyExists"}' } : undefined),
    });
    const vendorProvider = await startTestIdp();
    const stranger = await startTestIdp();
    open.push(ref, vendorProvider, stranger);
    // The partner's provider app, registered with the vendor out of band (the engine holds no key of it).
    const res = await fetch(`${ref.profile.control_url}/idp`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: ref.profile.clients[0].client_id, app_id: vendorProvider.appId, jwks_url: vendorProvider.jwksUrl }),
    });
    expect(res.status).toBe(204);
    const { control_url: _hidden, ...bare } = ref.profile;
    const checks = ['auth.idp.*', 'errors.idp.*'];
    const tokens = await tokensOf(vendorProvider);

    const first = await runConformance({ profile: { ...bare, idp: { enabled: true, tokens } }, env: {}, numRuns: 2, checks });
    const by = Object.fromEntries(first.results.map((r) => [r.checkId, r]));
    for (const id of ['auth.idp.exchange', 'errors.idp.auth-header-missing', 'errors.idp.identity-header-missing']) expect([id, by[id].verdict]).toEqual([id, 'pass']);
    const forged = first.results.filter((r) => !['auth.idp.exchange', 'errors.idp.auth-header-missing', 'errors.idp.identity-header-missing'].includes(r.checkId));
    expect(forged.length).toBe(8);
    for (const r of forged) expect([r.checkId, r.verdict, r.reason]).toEqual([r.checkId, 'skip', expect.stringMatching(/trust/)]);
    // The tokens never reach the report.
    expect(JSON.stringify(first)).not.toContain(tokens.access_token);

    // Same fixed identity again, registration refused: the exchange still runs and warns that registration was not observed.
    refuseRegistration = true;
    const again = await runConformance({ profile: { ...bare, idp: { enabled: true, tokens } }, env: {}, numRuns: 2, checks: ['auth.idp.exchange'] });
    expect(again.results[0].verdict).toBe('pass');
    expect(JSON.stringify(again.results[0])).toMatch(/registration \(ENDPOINT-RETAIL-REGISTER\) was not observed/);

    // Tokens of a provider the target does not trust: the exchange does not pass.
    const bad = await runConformance({ profile: { ...bare, idp: { enabled: true, tokens: await tokensOf(stranger) } }, env: {}, numRuns: 2, checks: ['auth.idp.exchange'] });
    expect(bad.results[0].verdict).not.toBe('pass');
    expect(bad.results[0].verdict).not.toBe('skip');
  }, 200_000);
});
