// errors.idp.app-not-registered (ERR-IDP-APP-NOT-REGISTERED, issue 33 item 6): on a company left
// without its provider app ID (control setIdpConfig then clearIdpConfig on profile.clients[1]) only
// the section 7 500 row passes, so a 401 there fails; an aud no company ever had keeps the 401 reading.
import { describe, expect, it } from 'vitest';
import { runOneOnVariant } from './variant-run.testkit.ts';
import type { TargetProfile } from '../../src/profile/types.ts';

const CHECK = 'errors.idp.app-not-registered';

const run = (variantId: string | undefined, edit?: (p: TargetProfile) => TargetProfile) => runOneOnVariant(CHECK, variantId, edit);

describe('the provider app ID not configured for the company', () => {
  it('the reference passes', async () => {
    const r = await run(undefined);
    expect(r.verdict, JSON.stringify(r.failure ?? r.reason)).toBe('pass');
  }, 60_000);

  it('idp.app-not-configured.401: a 401 on the unconfigured company fails naming ERR-IDP-APP-NOT-REGISTERED', async () => {
    const r = await run('idp.app-not-configured.401');
    expect(r.verdict).toBe('fail');
    expect(r.failure?.rules).toEqual(['ERR-IDP-APP-NOT-REGISTERED']);
    expect(r.failure?.message).toMatch(/401/);
  }, 60_000);

  it('benign idp.unknown-aud.401 (a 401 only for an aud the server never knew) passes, warning under refused-401', async () => {
    const r = await run('idp.unknown-aud.401');
    expect(r.verdict, JSON.stringify(r.failure)).toBe('pass');
    expect(r.warnings?.some((w) => w.includes('reading of ERR-IDP-APP-NOT-REGISTERED')), JSON.stringify(r)).toBe(true);
  }, 60_000);

  it('without a second client the company cannot be set up: the 401 passes with a warning and the 500 row is reported unjudged', async () => {
    const r = await run('idp.app-not-configured.401', (p) => ({ ...p, clients: [p.clients[0]] }));
    expect(r.verdict, JSON.stringify(r.failure)).toBe('pass');
    expect(r.warnings?.some((w) => w.includes('reading of ERR-IDP-APP-NOT-REGISTERED')), JSON.stringify(r)).toBe(true);
    expect(JSON.stringify(r.unjudged)).toMatch(/clearIdpConfig/);
  }, 60_000);
});
