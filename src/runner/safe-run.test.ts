// --safe is enforced from the model, on the wire: a check marked safe that would create a user or call
// a mutating control operation is refused before anything is sent, and fails; the same check without
// --safe does send (so the guard, not the check, is what stopped it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Check } from '../checks/types.ts';
import { createUserRequest } from '../client/credentials.ts';
import type { Exchange, RunEvent } from '../events/index.ts';
import { loadModel } from '../model/index.ts';
import type { Model, RuleId } from '../model/types.ts';
import { resolveProfile } from '../profile/index.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { startReference } from '../reference/index.ts';
import { runChecks } from './index.ts';

let ref: Awaited<ReturnType<typeof startReference>>;
let profile: ResolvedProfile;
let model: Model;
beforeAll(async () => {
  ref = await startReference();
  profile = resolveProfile(ref.profile, { env: {} });
  model = await loadModel();
});
afterAll(() => ref?.close());

const rule = 'ENDPOINT-RESPONSE-SCHEMA' as RuleId;
const base = { area: 'users' as const, section: '2', rules: [rule], safe: true };

/** Marked safe, but registers a user by raw method and path (the guard must match it to createUserV2). */
const createsUser: Check = {
  ...base,
  id: 'users.guard.creates-user',
  title: 'a safe-marked check that registers a user',
  async run(ctx) {
    const call = createUserRequest(ctx.model, { email: 'guard@example.com', country: 'DE', address: '0x0000000000000000000000000000000000000001' });
    await ctx.http.send({ method: call.method, path: call.path, body: call.body });
  },
};

/** Marked safe, calls a mutating control operation and swallows the refusal: still a failure. */
const swallowsControl: Check = {
  ...base,
  id: 'users.guard.moves-clock',
  title: 'a safe-marked check that moves the clock and ignores the refusal',
  async run(ctx) {
    await ctx.services.control?.call(ctx.http, 'advanceClock', { body: { seconds: 1 } }).catch(() => undefined);
  },
};

/** Marked safe, blocks a card by raw method and path: blockCard's path is not in the spec, only in the profile's locations. */
const blocksCard: Check = {
  ...base,
  id: 'cards.guard.blocks-card',
  area: 'cards',
  title: 'a safe-marked check that blocks a card by raw path',
  async run(ctx) {
    const loc = ctx.profile.operations.blockCard!;
    await ctx.http.send({ method: loc.method ?? 'POST', path: loc.path.replace('{card_id}', 'card-guard-1') });
  },
};
const blockedPath = () => profile.operations.blockCard!.path.replace('{card_id}', 'card-guard-1');

async function run(checks: Check[], safe: boolean) {
  const exchanges: Exchange[] = [];
  const reporter = { onEvent: (e: RunEvent) => void (e.type === 'exchange' && exchanges.push(e.exchange)) };
  const outcome = await runChecks({ profile, model, seed: 7, numRuns: 1, concurrency: 2, safe }, checks, [reporter]);
  return { outcome, exchanges };
}

describe('--safe guard from the model', () => {
  it('refuses a user registration and a clock move before sending, and fails both checks', async () => {
    const { outcome, exchanges } = await run([createsUser, swallowsControl], true);
    for (const id of [createsUser.id, swallowsControl.id]) {
      const r = outcome.results.find((x) => x.checkId === id)!;
      expect(r.verdict, id).toBe('fail');
      expect(r.verdict === 'fail' && r.failure.cause, id).toBe('SAFE_MODE_REFUSED');
    }
    const created = outcome.results.find((x) => x.checkId === createsUser.id)!;
    expect(created.verdict === 'fail' && created.failure.message).toMatch(/createUserV2 .*x-mutates/);
    const clock = outcome.results.find((x) => x.checkId === swallowsControl.id)!;
    expect(clock.verdict === 'fail' && clock.failure.message).toMatch(/advanceClock .*x-mutates/);
    const userPath = model.operation('createUserV2').path;
    expect(exchanges.filter((x) => new URL(x.request.url).pathname === userPath)).toEqual([]);
    expect(outcome.exitCode).toBe(1);
  });

  it('refuses a mutating operation found by the profile\'s location (no req.op), as the check client locates it', async () => {
    expect(model.operation('blockCard').pathUnspecified).toBe(true);
    const { outcome, exchanges } = await run([blocksCard], true);
    const r = outcome.results.find((x) => x.checkId === blocksCard.id)!;
    expect(r.verdict === 'fail' && r.failure.cause).toBe('SAFE_MODE_REFUSED');
    expect(r.verdict === 'fail' && r.failure.message).toMatch(/blockCard .*x-mutates/);
    expect(exchanges.filter((x) => new URL(x.request.url).pathname === blockedPath())).toEqual([]);
    const sent = await run([blocksCard], false);
    expect(sent.exchanges.some((x) => new URL(x.request.url).pathname === blockedPath())).toBe(true);
  });

  it('lets the same checks send without --safe', async () => {
    const { outcome, exchanges } = await run([createsUser, swallowsControl], false);
    const userPath = model.operation('createUserV2').path;
    expect(exchanges.some((x) => new URL(x.request.url).pathname === userPath)).toBe(true);
    for (const r of outcome.results) expect(r.verdict === 'fail' && r.failure.cause).not.toBe('SAFE_MODE_REFUSED');
  });
});
