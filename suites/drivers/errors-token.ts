// Section 7 token endpoint rows: each request varies one thing of a valid client-credentials body, so
// exactly one row applies; expected values come from model.errorRule(id).
// Joined into the errors drivers (suites/drivers/errors.ts); the generated suite is suites/generated/errors.ts.

import type { CheckContext } from '../../src/checks/types.ts';
import type { ErrorRuleId } from '../../src/model/types.ts';
import type { Driver, Drivers } from './driver.ts';
import {
  expectError, requestToken, rnd, tokenBody,
} from '../kit/index.ts';

function tokenRow(ruleId: ErrorRuleId, body: (ctx: CheckContext) => Record<string, unknown> | Record<string, unknown>[], needs: Driver['needs'] = []): Driver {
  return {
    safe: true,
    needs,
    async run(ctx) {
      const bodies = body(ctx);
      for (const b of Array.isArray(bodies) ? bodies : [bodies]) {
        const res = await requestToken(ctx, b);
        expectError(ctx, res, ruleId);
      }
    },
  };
}

function without<T extends Record<string, unknown>>(o: T, key: string): Record<string, unknown> {
  const { [key]: _drop, ...rest } = o;
  return rest;
}

function secretOf(c: { client_secret: string }): string {
  return c.client_secret !== '' ? c.client_secret : `conform-${rnd.hex(8)}`;
}

export const tokenDrivers: Drivers = {
  'ERR-TOKEN-CLIENT-ID-MISSING': tokenRow('ERR-TOKEN-CLIENT-ID-MISSING', (ctx) => without(tokenBody(ctx), 'client_id')),
  'ERR-TOKEN-CLIENT-SECRET-MISSING': tokenRow('ERR-TOKEN-CLIENT-SECRET-MISSING', (ctx) => without(tokenBody(ctx), 'client_secret')),
  'ERR-TOKEN-GRANT-TYPE-INVALID': tokenRow('ERR-TOKEN-GRANT-TYPE-INVALID', (ctx) => [
    { ...tokenBody(ctx), grant_type: 'password' },
    { ...tokenBody(ctx), grant_type: 'authorization_code' },
  ]),
  'ERR-TOKEN-UNKNOWN-CLIENT': tokenRow('ERR-TOKEN-UNKNOWN-CLIENT', (ctx) => ({ ...tokenBody(ctx), client_id: rnd.uuid(), client_secret: `conform-${rnd.hex(16)}` })),
  'ERR-TOKEN-WRONG-SECRET': tokenRow('ERR-TOKEN-WRONG-SECRET', (ctx) => ({ ...tokenBody(ctx), client_secret: `${tokenBody(ctx).client_secret}-wrong-${rnd.hex(4)}` })),
  'ERR-TOKEN-NO-SECRET-CONFIGURED': tokenRow(
    'ERR-TOKEN-NO-SECRET-CONFIGURED',
    (ctx) => {
      const c = ctx.profile.special_clients?.no_secret;
      if (!c) return ctx.skip('needs profile.special_clients.no_secret');
      return { client_id: c.client_id, client_secret: secretOf(c), grant_type: ctx.model.grantType() };
    },
    ['special_client:no_secret'],
  ),
  'ERR-TOKEN-COMPANY-TYPE': tokenRow(
    'ERR-TOKEN-COMPANY-TYPE',
    (ctx) => {
      const c = ctx.profile.special_clients?.company_type_restricted;
      if (!c) return ctx.skip('needs profile.special_clients.company_type_restricted');
      return { client_id: c.client_id, client_secret: secretOf(c), grant_type: ctx.model.grantType() };
    },
    ['special_client:company_type_restricted'],
  ),
};
