// Section 9 versioning: v1 and v2 user endpoints coexist; only the v2 read has capabilities; the
// SepaAccount capability status is one of the section 3 values.

import {
  opLabel,
  expectSchema, check, createUser, expect2xx, readUser, sepaStatus, sepaStatuses, setSepaStatus, userHeaders, hasControl, existingUser, field
} from '../kit/index.ts';
import type { Drivers } from './driver.ts';

export const drivers: Drivers = {
  'VERSION-V2-CAPABILITIES': {
    safe: false,
    async run(ctx) {
      const user = await createUser(ctx);
      const res = await readUser(ctx, 'v2', await userHeaders(ctx, user));
      expect2xx(res, opLabel(ctx, 'getUserV2'));
      expectSchema(res, 'getUserV2', undefined, ['VERSION-V2-CAPABILITIES']);
      const caps = res.json?.capabilities;
      check(Array.isArray(caps), `${opLabel(ctx, 'getUserV2')} has no capabilities array: ${res.text.slice(0, 200)}`, { response: res });
      for (const c of caps) check(typeof c?.type === 'string' && typeof c?.status === 'string', `capability without string type/status: ${JSON.stringify(c)}`, { response: res });
    },
  },

  'VERSION-V1-NO-CAPABILITIES': {
    safe: false,
    async run(ctx) {
      const user = await createUser(ctx);
      const res = await readUser(ctx, 'v1', await userHeaders(ctx, user));
      expect2xx(res, opLabel(ctx, 'getUserV1'));
      check(res.json && !Object.hasOwn(res.json, 'capabilities'), `${opLabel(ctx, 'getUserV1')} returns a capabilities field; only the v2 user read does (section 9.1)`, { response: res });
    },
  },

  'VERSION-COEXIST': {
    title: 'Users created with {op:createUserV1} and {path:getUserV2} are both readable with {op:getUserV1} and {path:getUserV2}',
    safe: false,
    async run(ctx) {
      for (const version of ['v1', 'v2'] as const) {
        const user = await createUser(ctx, { version });
        for (const read of ['v1', 'v2'] as const) {
          const res = await readUser(ctx, read, await userHeaders(ctx, user));
          expect2xx(res, `GET /api/${read}/user for a user created with POST /api/${version}/user`);
          check(field(res.json, 'user_id') === user.id, `GET /api/${read}/user answered user_id ${JSON.stringify(field(res.json, 'user_id'))}, expected ${user.id}`, { response: res });
        }
      }
    },
  },

  'VERSION-SEPA-CAPABILITY-STATUSES': {
    title: 'The SepaAccount capability status on {op:getUserV2} is one of the section 3 values, for a new user and after each status is set',
    safe: false,
    async run(ctx) {
      const allowed = sepaStatuses(ctx);
      const user = await createUser(ctx);
      const first = await sepaStatus(ctx, user);
      if (first.status !== undefined) check((allowed as unknown[]).includes(first.status), `SepaAccount status ${JSON.stringify(first.status)} is not one of ${allowed.join(', ')}`, { response: first.res });
      if (!hasControl(ctx, 'setSepaCapabilityStatus')) {
        // Read only: each profile fixture user (profile.fixtures.sepa: status -> user id) shows its status.
        const fixtures = Object.entries(ctx.profile.fixtures?.sepa ?? {});
        for (const [want, id] of fixtures) {
          const got = await sepaStatus(ctx, await existingUser(ctx, id));
          check(got.status === want, `profile.fixtures.sepa.${want} user ${id}: ${opLabel(ctx, 'getUserV2')} shows SepaAccount ${JSON.stringify(got.status)}`, { response: got.res });
        }
        if (first.status === undefined && fixtures.length === 0) ctx.skip('a new user has no SepaAccount capability, control operation setSepaCapabilityStatus is not available and profile.fixtures.sepa names no user');
        const unseen = allowed.filter((st) => !fixtures.some(([want]) => want === st));
        if (unseen.length) ctx.couldNotJudge(`${opLabel(ctx, 'getUserV2')} shows the SepaAccount status ${unseen.join(', ')} once a user is in it`, 'control operation setSepaCapabilityStatus (or profile.fixtures.sepa users in those states)');
        return;
      }
      for (const s of allowed) {
        await setSepaStatus(ctx, user, s);
        const got = await sepaStatus(ctx, user);
        check(got.status === s, `after setting ${s}, ${opLabel(ctx, 'getUserV2')} shows SepaAccount ${JSON.stringify(got.status)}`, { response: got.res });
      }
    },
  },
};
