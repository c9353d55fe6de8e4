// Section 7 identity-provider rows: provider tokens with one fault (header left out, expired, forged,
// linked accounts incomplete, unregistered application) on the operations the row names.
// Joined into the errors drivers (suites/drivers/errors.ts); the generated suite is suites/generated/errors.ts.

import fc from 'fast-check';
import type { ErrorRuleId } from '../../src/model/types.ts';
import type { Driver, Drivers } from './driver.ts';
import {
  opLabel, expect2xx, expectError, rnd, idpAuthorize, sharedIdpUser, expectAudienceRefused, expectOneOfErrors, idpHeaders,
  ownRowOperations, rowOnOperations, hasControl, control, type ProviderIdentity,
} from '../kit/index.ts';
import type { CheckContext } from '../../src/checks/types.ts';

function idpRow(ruleId: ErrorRuleId, variants: Parameters<typeof idpAuthorize>[2][]): Driver {
  // Rows that only leave a header out also run with real provider tokens; the others forge tokens.
  const forges = variants.some((v) => v?.access || v?.identity);
  return {
    safe: false,
    needs: [forges ? 'idp' : 'idp_tokens'],
    async run(ctx) {
      const who = await sharedIdpUser(ctx);
      const ok = await idpAuthorize(ctx, who);
      expect2xx(ok, `baseline: ${opLabel(ctx, 'authorizeUser')} with valid provider tokens`, ['AUTH-IDP-EXCHANGE']);
      // Both operations the row names (authorize and retail registration, suites/kit/rows.ts), picked by
      // fast-check after one run each; a failure names the operation.
      const ops = ownRowOperations(ctx, ruleId, { registerRetailUser: { country: 'DE' } });
      await rowOnOperations(ctx, ops, fc.constantFrom(...variants), () => variants, async (o, v) => {
        expectError(ctx, await ctx.http.send({ op: o.op, headers: await idpHeaders(ctx, who, v), body: o.body }), ruleId);
      }, ops.length * variants.length + 4);
    },
  };
}

/**
 * The row's own cause, set up: company B (profile.clients[1]) gets a provider app ID with the engine's
 * key set, which is then configured for no company (control clearIdpConfig). Tokens naming it, signed
 * by keys the server was given, meet a company without a configured app whichever way the server finds
 * the company: only the 500 row fits (no reading admits a 401 here). The provider's sub varies: a
 * registered user's, fresh ones, and fast-check strings, so no user lookup stands in for the app check.
 */
async function unconfiguredCompany(ctx: CheckContext, who: ProviderIdentity, ops: ReturnType<typeof ownRowOperations>): Promise<void> {
  const p = ctx.services.idp;
  const other = ctx.profile.clients[1];
  if (!p || !other || !hasControl(ctx, 'setIdpConfig') || !hasControl(ctx, 'clearIdpConfig')) {
    return ctx.couldNotJudge('the 500 row on a company whose provider app ID is not configured (only an unregistered aud is tried, where a 401 is accepted with a warning)', "control operations setIdpConfig and clearIdpConfig, the engine's test provider, and a second client (profile.clients[1])");
  }
  const appId = `conform-cleared-${rnd.hex(6)}`;
  await control(ctx, 'setIdpConfig', { body: { client_id: other.client_id, app_id: appId, jwks_url: p.jwksUrl } });
  await control(ctx, 'clearIdpConfig', { body: { app_id: appId } });
  const subs = fc.oneof(fc.uuid().map((u) => `conform-${u}`), fc.string({ minLength: 1, maxLength: 40 }));
  await rowOnOperations(ctx, ops, subs, () => [who.sub, `conform-${rnd.hex(8)}`], async (o, sub) => {
    const res = await ctx.http.send({ op: o.op, headers: await idpHeaders(ctx, { ...who, sub }, { access: { aud: appId, sub } }), body: o.body });
    expectError(ctx, res, 'ERR-IDP-APP-NOT-REGISTERED');
  }, ops.length * 2 + 6);
}

export const idpDrivers: Drivers = {
  'ERR-IDP-AUTH-HEADER-MISSING': idpRow('ERR-IDP-AUTH-HEADER-MISSING', [{ omitAuthorization: true }]),
  'ERR-IDP-IDENTITY-HEADER-MISSING': idpRow('ERR-IDP-IDENTITY-HEADER-MISSING', [{ omitIdentity: true }]),
  'ERR-IDP-ACCESS-TOKEN-EXPIRED': idpRow('ERR-IDP-ACCESS-TOKEN-EXPIRED', [{ access: { expiresIn: -3600 } }]),
  'ERR-IDP-ID-TOKEN-EXPIRED': idpRow('ERR-IDP-ID-TOKEN-EXPIRED', [{ identity: { expiresIn: -3600 } }]),
  'ERR-IDP-ACCESS-TOKEN-SIGNATURE': idpRow('ERR-IDP-ACCESS-TOKEN-SIGNATURE', [{ access: { badSignature: true } }]),
  'ERR-IDP-ID-TOKEN-SIGNATURE': idpRow('ERR-IDP-ID-TOKEN-SIGNATURE', [{ identity: { badSignature: true } }]),
  'ERR-IDP-LINKED-ACCOUNTS-MISSING': idpRow('ERR-IDP-LINKED-ACCOUNTS-MISSING', [{ identity: { omitLinkedAccounts: true } }]),
  'ERR-IDP-IDENTIFIERS-INCOMPLETE': {
    title: 'Identity token whose linked_accounts lack the email: 400 ErrorMissingField "{message:ERR-IDP-IDENTIFIERS-INCOMPLETE}"; lacking the wallet: that row or "{message:ERR-IDP-LINKED-ACCOUNTS-MISSING}" (both causes read "no wallet")',
    safe: false,
    needs: ['idp'],
    async run(ctx) {
      const who = await sharedIdpUser(ctx);
      expect2xx(await idpAuthorize(ctx, who), `baseline: ${opLabel(ctx, 'authorizeUser')} with valid provider tokens`, ['AUTH-IDP-EXCHANGE']);
      // Both operations the row names (suites/kit/rows.ts), each with the email and the wallet left out.
      const ops = ownRowOperations(ctx, 'ERR-IDP-IDENTIFIERS-INCOMPLETE', { registerRetailUser: { country: 'DE' } });
      const omits = [{ identity: { omitEmail: true } }, { identity: { omitWallet: true } }];
      await rowOnOperations(ctx, ops, fc.constantFrom(...omits), () => omits, async (o, v) => {
        const res = await ctx.http.send({ op: o.op, headers: await idpHeaders(ctx, who, v), body: o.body });
        if (v.identity.omitEmail) expectError(ctx, res, 'ERR-IDP-IDENTIFIERS-INCOMPLETE');
        // No wallet entry (neither the EOA nor the smart_wallet) fits two section 7 causes: "email or wallet absent" and "no wallet linked".
        else expectOneOfErrors(ctx, res, ['ERR-IDP-IDENTIFIERS-INCOMPLETE', 'ERR-IDP-LINKED-ACCOUNTS-MISSING'], ['ERR-IDP-IDENTIFIERS-INCOMPLETE']);
      }, ops.length * omits.length + 4);
    },
  },
  'ERR-IDP-APP-NOT-REGISTERED': {
    title: 'A company whose provider app ID is not configured (set up through control setIdpConfig then clearIdpConfig on profile.clients[1]), provider sub varied: 500 ErrorConfigurationInvalid "{message:ERR-IDP-APP-NOT-REGISTERED}", a 401 fails; an aud no company has configured: that row or a 401 refusal (the reading of an aud mismatch, a warning)',
    safe: false,
    needs: ['idp'],
    async run(ctx) {
      const who = await sharedIdpUser(ctx);
      expect2xx(await idpAuthorize(ctx, who), `baseline: ${opLabel(ctx, 'authorizeUser')} with valid provider tokens`, ['AUTH-IDP-EXCHANGE']);
      // Both operations the row names (suites/kit/rows.ts), picked by fast-check after one run each.
      const ops = ownRowOperations(ctx, 'ERR-IDP-APP-NOT-REGISTERED', { registerRetailUser: { country: 'DE' } });
      await unconfiguredCompany(ctx, who, ops);
      await rowOnOperations(ctx, ops, fc.constant(null), () => [null], async (o) => {
        const res = await ctx.http.send({ op: o.op, headers: await idpHeaders(ctx, who, { access: { aud: `conform-unregistered-${rnd.hex(6)}` } }), body: o.body });
        expectAudienceRefused(ctx, res, ['ERR-IDP-APP-NOT-REGISTERED']);
      }, ops.length + 2);
    },
  },
};
