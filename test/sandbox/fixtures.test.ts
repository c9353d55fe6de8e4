// Fixtures by profile: without any control operation, checks that read a pending 3DS challenge, a
// pending withdrawal or a SEPA status use the existing users the profile names, read only; a fixture
// in the wrong state fails the check (a lie is caught) and a fixture with nothing pending skips it.

import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../../src/api/index.ts';
import type { TargetProfile } from '../../src/profile/types.ts';
import { startReference, type ReferenceServer } from '../../src/reference/index.ts';

const CHECKS = ['aliases.3ds.owner', 'aliases.withdrawal.*', 'states.withdrawal.requested', 'versioning.sepa.capability-statuses'];
const open: ReferenceServer[] = [];
afterEach(async () => {
  for (const r of open.splice(0)) await r.close();
});

async function control(ref: ReferenceServer, method: string, path: string, body: unknown = {}) {
  const res = await fetch(`${ref.profile.control_url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
}

/** A user of clients[0]'s company made the way a vendor's sandbox seeds fixtures (outside the run). */
async function seededUser(ref: ReferenceServer): Promise<string> {
  const c = ref.profile.clients[0];
  const tok = await (await fetch(`${ref.profile.base_url}/api/v1/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...c, label: undefined, grant_type: 'client_credentials' }) })).json();
  const res = await fetch(`${ref.profile.base_url}/api/v1/user`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tok.access_token}`, 'x-chain-id': '84532' },
    body: JSON.stringify({ email: `fx-${Math.random().toString(36).slice(2)}@example.com`, country: 'DE', user_address: `0x${'ab'.repeat(19)}${Math.floor(Math.random() * 256).toString(16).padStart(2, '0')}` }),
  });
  const j = await res.json();
  return j.user_id ?? j.id;
}

async function run(profile: TargetProfile) {
  const out = await runConformance({ profile, env: {}, numRuns: 2, checks: CHECKS });
  return Object.fromEntries(out.results.map((r) => [r.checkId, r]));
}

describe('profile fixtures without control operations', () => {
  it('read pending states from the named users instead of skipping; a wrong fixture state fails, an empty one skips', async () => {
    const ref = await startReference();
    open.push(ref);
    const [three, withdrawal, sepaUser] = [await seededUser(ref), await seededUser(ref), await seededUser(ref)];
    await control(ref, 'POST', `/users/${three}/3ds`);
    await control(ref, 'POST', `/users/${withdrawal}/withdrawal-requests`);
    await control(ref, 'PUT', `/users/${sepaUser}/capabilities/SepaAccount`, { status: 'InProgress' });
    const { control_url: _hidden, ...bare } = ref.profile;

    const without = await run(bare);
    for (const id of ['aliases.3ds.owner', 'aliases.withdrawal.account-address', 'aliases.withdrawal.to-address', 'states.withdrawal.requested']) {
      expect(without[id].verdict).toBe('skip');
      expect(without[id].reason).toMatch(/fixtures\.(three_ds_pending|withdrawal_pending)/);
    }

    const fixtures = { three_ds_pending: { user_id: three }, withdrawal_pending: { user_id: withdrawal }, sepa: { InProgress: sepaUser } };
    const withFixtures = await run({ ...bare, fixtures });
    for (const id of Object.keys(without)) expect([id, withFixtures[id].verdict, withFixtures[id].reason]).toEqual([id, 'pass', undefined]);

    // A fixture that does not hold what the profile says: the read-only check catches it.
    const lie = await run({ ...bare, fixtures: { ...fixtures, sepa: { Active: sepaUser } } });
    expect(lie['versioning.sepa.capability-statuses'].verdict).toBe('fail');
    // A fixture with nothing pending: skipped with the reason, never passed.
    const empty = await run({ ...bare, fixtures: { ...fixtures, withdrawal_pending: { user_id: three } } });
    expect(empty['states.withdrawal.requested'].verdict).toBe('skip');
    expect(empty['states.withdrawal.requested'].reason).toMatch(/has no pending withdrawal request/);
  }, 200_000);
});
