// Section 5: S2S token issuance and claims, the Bearer scheme, user-agnostic endpoints, user token
// issuance and use, and the identity-provider exchange.

import { jwtVerify } from 'jose';
import {
  opLabel,
  expectSchema, authorizeRaw, bearer, chainHeader, check, createUser, createUserRaw, expect2xx, headers, jwtClaims, jwtHeader,
  readUser, requestToken, rnd, s2sToken, tokenBody, userIdFrom, userToken, idpAuthorize, newIdpIdentity, registerRetail, expectAudienceRefused, clockSkewAllowance, IDENTITY_KINDS, identityHeader, identityValue, is2xx, suppliedRetailUser, userFieldMismatch, warnReading, field, allInOrder, inBatches
} from '../kit/index.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { Drivers } from './driver.ts';
import { precedenceOnWrites } from './token-precedence.ts';
import { userTokenOnEveryRoute } from './user-token-routes.ts';
import type { RuleId } from '../../src/model/types.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/**
 * A user token's expires_at: Unix seconds (section 2 Token), not milliseconds, and not already past. The
 * unit is told by the magnitude the model's UnixSeconds schema uses (below its maximum, 10^11 - 1: any
 * future time is accepted, user-token validity is not shown; the schema's x-unspecified note).
 */
function expectUnixSeconds(ctx: CheckContext, res: HttpResponse, rules: RuleId[]): void {
  const at = (res.json as { expires_at?: unknown })?.expires_at;
  check(Number.isInteger(at), `expires_at ${JSON.stringify(at)} is not an integer (Unix seconds)`, { rules, response: res });
  const now = Date.now() / 1000;
  const max = Number(ctx.model.openapi?.components?.schemas?.UnixSeconds?.maximum ?? 99_999_999_999);
  check((at as number) <= max, `expires_at ${at} is not Unix time in seconds (milliseconds?): seconds stay below ${max + 1}`, { rules, response: res });
  check((at as number) > now - 5 - clockSkewAllowance(ctx), `expires_at ${at} is already in the past (now ${Math.floor(now)})`, { rules, response: res });
}

async function freshS2s(ctx: CheckContext, i = 0) {
  const res = await requestToken(ctx, tokenBody(ctx, i));
  expect2xx(res, `${opLabel(ctx, 'createToken')} with valid client credentials`);
  return res;
}

export const drivers: Drivers = {
  'AUTH-S2S-TOKEN-RESPONSE': {
    safe: true,
    async run(ctx) {
      const res = await freshS2s(ctx);
      expectSchema(res, 'createToken', undefined, ['AUTH-S2S-TOKEN-RESPONSE']);
      const { access_token, token_type, expires_at } = res.json;
      check(typeof access_token === 'string' && access_token.split('.').length === 3, `access_token is not a compact JWT: ${JSON.stringify(access_token)}`, { response: res });
      // RFC 6749 section 7.1: the token type is case-insensitive, so "bearer" is the same type (recorded
      // x-unspecified on the Token schema's token_type).
      const wantType = ctx.model.auth.s2s_token.token_type;
      check(typeof token_type === 'string' && token_type.toLowerCase() === wantType.toLowerCase(), `token_type ${JSON.stringify(token_type)}, expected ${JSON.stringify(wantType)} (any letter case)`, { response: res });
      check(Number.isInteger(expires_at), `expires_at ${JSON.stringify(expires_at)} is not an integer (Unix seconds)`, { response: res });
      // Unix seconds, not milliseconds: within a century of now.
      check(Math.abs(expires_at - Date.now() / 1000) < 100 * 365 * 86400, `expires_at ${expires_at} is not Unix time in seconds`, { response: res });
      // Section 4: "the client library also sends an optional audience string". Its value is not shown
      // (the rule's reading audience-value): only the value the profile documents
      // (request_templates.createToken.audience) must be accepted. Without one, the base URL is tried as
      // a probe: a refusal is a warning (a server may validate a value it documents elsewhere).
      const tpl = ctx.profile.request_templates?.createToken?.audience;
      const documented = typeof tpl === 'string';
      const audience = documented ? tpl : ctx.profile.base_url;
      const withAudience = await requestToken(ctx, { ...tokenBody(ctx), audience });
      const rules: RuleId[] = ['AUTH-S2S-TOKEN-RESPONSE'];
      if (!documented && !is2xx(withAudience)) {
        warnReading(ctx, 'AUTH-S2S-TOKEN-RESPONSE', 'audience-value', `${opLabel(ctx, 'createToken')} with the optional audience ${JSON.stringify(audience)} (the base URL; the profile documents no value) answered HTTP ${withAudience.status}`);
        return;
      }
      expect2xx(withAudience, `${opLabel(ctx, 'createToken')} with valid client credentials and the optional audience ${JSON.stringify(audience)} (${documented ? 'profile.request_templates.createToken.audience' : 'the base URL'})`, rules);
      const audienceToken = field(withAudience.json, 'access_token');
      check(typeof audienceToken === 'string' && audienceToken.split('.').length === 3, `the token request with audience answered no JWT access_token: ${withAudience.text.slice(0, 200)}`, { rules, response: withAudience });
    },
  },

  'AUTH-S2S-TOKEN-CLAIMS': {
    title: 'S2S token: HS256 header, claims iss, sub, azp (client UUID), company_id, scope partner:full, iat, exp (from the model); signature verifies with the secret when given',
    safe: true,
    async run(ctx) {
      const facts = ctx.model.auth.s2s_token;
      const res = await freshS2s(ctx);
      const token = field(res.json, 'access_token');
      check(typeof token === 'string', `${opLabel(ctx, 'createToken')} answered no access_token string: ${res.text.slice(0, 200)}`, { response: res });
      const header = jwtHeader(token);
      check(header.alg === facts.algorithm, `JWT header alg ${JSON.stringify(header.alg)}, expected ${facts.algorithm}`, { response: res });
      const claims = jwtClaims(token) as Record<string, unknown>;
      const missing = facts.claims.filter((c) => claims[c] === undefined);
      check(missing.length === 0, `S2S token lacks claim(s) ${missing.join(', ')}; section 5 lists ${facts.claims.join(', ')}`, { response: res });
      check(claims.scope === facts.scope, `scope ${JSON.stringify(claims.scope)}, expected ${JSON.stringify(facts.scope)}`, { response: res });
      const rules: RuleId[] = ['AUTH-S2S-TOKEN-CLAIMS'];
      check(typeof claims.sub === 'string' && claims.sub === claims.azp, `sub ${JSON.stringify(claims.sub)} and azp ${JSON.stringify(claims.azp)} must both be the client UUID`, { rules, response: res });
      // Section 5: "sub (client UUID), azp (client UUID)", "iss (<issuer_url>)".
      check(UUID.test(String(claims.sub)), `sub ${JSON.stringify(claims.sub)} is not a UUID; section 5 gives sub and azp as the client UUID`, { rules, response: res });
      check(typeof claims.iss === 'string' && isUrl(claims.iss), `iss ${JSON.stringify(claims.iss)} is not an issuer URL`, { rules, response: res });
      check(Number.isInteger(claims.iat) && Number.isInteger(claims.exp), `iat/exp must be integers (got ${claims.iat}, ${claims.exp})`, { response: res });
      check(claims.company_id !== null && claims.company_id !== '', `company_id is empty`, { response: res });
      if (ctx.profile.s2s_signing_secret) {
        try {
          await jwtVerify(token, new TextEncoder().encode(ctx.profile.s2s_signing_secret), { algorithms: [facts.algorithm], currentDate: new Date((claims.iat as number) * 1000) });
        } catch (err) {
          check(false, `the S2S token does not verify as ${facts.algorithm} with profile.s2s_signing_secret: ${(err as Error).message}`, { response: res });
        }
      }
      if (ctx.profile.clients.length >= 2) {
        const otherRes = await freshS2s(ctx, 1);
        const otherToken = field(otherRes.json, 'access_token');
        check(typeof otherToken === 'string', `${opLabel(ctx, 'createToken')} for profile.clients[1] answered no access_token string: ${otherRes.text.slice(0, 200)}`, { response: otherRes });
        const other = jwtClaims(otherToken) as Record<string, unknown>;
        check(other.azp !== claims.azp, 'two different clients received the same azp claim');
        check(other.company_id !== claims.company_id, 'clients of two different companies (profile.clients[0], [1]) received the same company_id claim');
      }
    },
  },

  'AUTH-S2S-BEARER-ACCEPTED': {
    safe: true,
    async run(ctx) {
      const h = headers(bearer(await s2sToken(ctx)), chainHeader(ctx));
      for (const op of ctx.model.rule('AUTH-S2S-BEARER-ACCEPTED').operations) {
        expect2xx(await ctx.http.send({ op, headers: h }), `${op} with Authorization: Bearer <S2S token>`);
      }
    },
  },

  'AUTH-USER-AGNOSTIC': {
    title: 'User-agnostic endpoints answer an S2S token with no user identity headers: {op:createUserV1} (+X-Chain-Id), {op:createUserV2}, config, validation rules',
    safe: false,
    async run(ctx) {
      const token = await s2sToken(ctx);
      const v1 = await createUserRaw(ctx, 'v1', headers(bearer(token), chainHeader(ctx)), { email: rnd.email(), country: 'DE', user_address: rnd.address() });
      expect2xx(v1, `${opLabel(ctx, 'createUserV1')} with S2S token and X-Chain-Id only`);
      check(userIdFrom(ctx, v1.json), `${opLabel(ctx, 'createUserV1')} answered without a user id`, { response: v1 });
      const v2 = await createUserRaw(ctx, 'v2', bearer(token), { email: rnd.email(), country: 'FR', user_address: rnd.address() });
      expect2xx(v2, `${opLabel(ctx, 'createUserV2')} with the S2S token only`);
      check(userIdFrom(ctx, v2.json), `${opLabel(ctx, 'createUserV2')} answered without a user id`, { response: v2 });
      for (const op of ['getConfig', 'getValidationRules'] as const) {
        expect2xx(await ctx.http.send({ op, headers: bearer(token) }), `${op} with the S2S token only`);
      }
    },
  },

  'AUTH-USER-TOKEN-ISSUANCE': {
    safe: false,
    async run(ctx) {
      const user = await createUser(ctx);
      const res = await authorizeRaw(ctx, user);
      expect2xx(res, `${opLabel(ctx, 'authorizeUser')} with S2S token, X-User-Wallet (EOA) and X-Chain-Id`);
      expectSchema(res, 'authorizeUser', undefined, ['AUTH-USER-TOKEN-ISSUANCE']);
      check(typeof res.json.access_token === 'string' && res.json.access_token.length > 0, 'no access_token', { rules: ['AUTH-USER-TOKEN-ISSUANCE'], response: res });
      expectUnixSeconds(ctx, res, ['AUTH-USER-TOKEN-ISSUANCE']);
    },
  },

  // Requests worth their cost (issue 32): about 54 for one rule, kept. One request per route that takes a
  // user token (the bank's user-token.use.reads-only takes it on the user reads only), and 4 per identity
  // header kind on writes (a card and an XRPL account, each looked up as the other user), since a
  // target may let the header win on writes only (user-token.identity-header-wins.writes).
  'AUTH-USER-TOKEN-USE': {
    title: 'A user token with X-Chain-Id and no identity headers reads its own user on {op:getUserV1} and {path:getUserV2}, and is taken as a credential on every route that accepts one (x-auth user; no 401, no section 7 credentials row)',
    safe: false,
    async run(ctx) {
      // The token's user and the other user share nothing: created at once (the first failure in this order is reported).
      const [user, other] = await allInOrder(() => createUser(ctx), () => createUser(ctx));
      const token = await userToken(ctx, user);
      const h = headers(bearer(token), chainHeader(ctx));
      // The reads, the reads with another user's header, the writes with it and the walk of every route
      // judge separate things on separate objects (the walk's writes name made-up ids or the token's own
      // user, the precedence writes carry unique names): they go out at once, each part in its own order,
      // and are judged in the order below, so the failure reported is the one the sequential run met first.
      await allInOrder(
        async () => {
          // Both reads at once, judged v1 then v2.
          const reads = await Promise.all((['v1', 'v2'] as const).map(async (v) => [v, await readUser(ctx, v, h)] as const));
          for (const [v, res] of reads) {
            expect2xx(res, `GET /api/${v}/user with the user token`);
            check(field(res.json, 'user_id') === user.id, `GET /api/${v}/user with the user token answered user_id ${JSON.stringify(field(res.json, 'user_id'))}, expected ${user.id}`, { response: res });
            // Section 4 lists id, user_id, user_address, wallet_address on user reads: email is compared
            // only when the answer carries it (spec/openapi.yaml x-checked-when-present).
            const email = userFieldMismatch(ctx, v === 'v1' ? 'getUserV1' : 'getUserV2', res.json, 'email', user.email);
            check(email === undefined, `GET /api/${v}/user with the user token answered ${email}`, { response: res });
          }
          // A user token with another user's identity header never acts as that other user: it is refused,
          // or the header is ignored and the token's own user answers (section 5 does not say which).
          await inBatches(IDENTITY_KINDS, (kind) => readUser(ctx, 'v1', headers(h, { [identityHeader(ctx, kind)]: identityValue(other, kind) })), (kind, res) => {
            if (!is2xx(res)) return;
            const got = (res.json as { user_id?: unknown })?.user_id;
            check(got === user.id, `${opLabel(ctx, 'getUserV1')} with ${user.id}'s user token and ${identityHeader(ctx, kind)} of another user answered user_id ${JSON.stringify(got)}: a user token must not act as another user`, { rules: ['AUTH-USER-TOKEN-USE'], response: res });
          });
        },
        // The same on writes: nothing the call creates lands with the other user (token-precedence.ts).
        () => precedenceOnWrites(ctx, user, token, other),
        // Step 4 on every route that accepts a user token, not only the user reads (user-token-routes.ts).
        async () => ctx.log(`the user token was taken as a credential on ${await userTokenOnEveryRoute(ctx, token)} route(s) that accept one`),
      );
    },
  },

  'AUTH-IDP-EXCHANGE': {
    title: 'Retail registration with provider tokens returns the user id; the provider tokens are then exchanged at {op:authorizeUser} for a user token that reads that user',
    safe: false,
    needs: ['idp_tokens'],
    alsoCovers: ['ENDPOINT-RETAIL-REGISTER'],
    async run(ctx) {
      // The engine's provider mints a fresh identity; real tokens (profile.idp.tokens) carry a fixed one.
      const { user: who, registered } = ctx.services.idp ? { user: await registerRetail(ctx, newIdpIdentity(), 'DE'), registered: true } : await suppliedRetailUser(ctx);
      if (!registered) ctx.warn('the supplied provider identity was registered before this run: retail registration (ENDPOINT-RETAIL-REGISTER) was not observed, only the exchange');
      const reg = who.registration;
      // Section 4: the answer is "id (user UUID)", and rule 5 "returns only id": id is required here (the
      // kit's userIdFrom also reads user_id, for operations answering a bare "user id"). "Only" is read as
      // "no token; the caller then calls authorize", not as "no other field": extra fields stay allowed
      // (benign.extra-fields), and section 9 rule 3 keeps deprecated pairs such as user_id beside id.
      const registeredId = reg ? field(reg.json, 'id') : who.id;
      if (reg) check(typeof registeredId === 'string' && registeredId !== '', `${opLabel(ctx, 'registerRetailUser')} answered ${reg.text.slice(0, 200)}: section 4 returns the new user's UUID as id`, { rules: ['ENDPOINT-RETAIL-REGISTER'], response: reg });
      const res = await idpAuthorize(ctx, who);
      expect2xx(res, `${opLabel(ctx, 'authorizeUser')} (identity-provider form)`, ['AUTH-IDP-EXCHANGE']);
      expectSchema(res, 'authorizeUser');
      const token = res.json.access_token;
      check(typeof token === 'string' && token.length > 0, 'no access_token', { response: res });
      expectUnixSeconds(ctx, res, ['AUTH-IDP-EXCHANGE']);
      const me = await readUser(ctx, 'v1', headers(bearer(token), chainHeader(ctx)));
      expect2xx(me, `${opLabel(ctx, 'getUserV1')} with the exchanged user token`);
      check(field(me.json, 'user_id') === registeredId, `the exchanged token reads user ${JSON.stringify(field(me.json, 'user_id'))}, but registration returned ${registeredId}`, { rules: ['ENDPOINT-RETAIL-REGISTER'], response: me });
      // Email on a user read is checked only when present (spec/openapi.yaml x-checked-when-present).
      const email = userFieldMismatch(ctx, 'getUserV1', me.json, 'email', who.email);
      check(email === undefined, `after the exchange ${opLabel(ctx, 'getUserV1')} answered ${email}: the identity token linked that email`, { response: me });
      // Section 5: "Email and wallet come from the tokens": the user's address is a wallet the identity
      // token links, the EOA (section 2: user_address is the EOA) or the smart_wallet (section 5's
      // example type); the rule's reading user-address. The engine's identity links exactly those two.
      if (!ctx.services.idp) ctx.couldNotJudge(`the user_address ${opLabel(ctx, 'getUserV1')} answers after the exchange is a wallet the identity token links`, 'a test identity provider the target trusts (the supplied profile.idp.tokens link wallets the run does not know)');
      if (ctx.services.idp && who.wallet) {
        const got = field(me.json, 'user_address');
        const linked = [who.eoa, who.wallet].filter((a) => a !== '');
        check(typeof got === 'string' && linked.some((a) => a.toLowerCase() === got.toLowerCase()), `after the exchange ${opLabel(ctx, 'getUserV1')} answered user_address ${JSON.stringify(got)}, but the identity token linked the wallets ${linked.join(' (EOA), ')} (smart_wallet)`, { rules: ['AUTH-IDP-EXCHANGE'], response: me });
      }
    },
  },

  'AUTH-IDP-AUDIENCE': {
    title: "Provider access token aud: the configured app id is accepted; any other aud is refused (500 ErrorConfigurationInvalid, or 401: section 7 shows no row for a mismatch)",
    safe: false,
    needs: ['idp'],
    async run(ctx) {
      const who = await registerRetail(ctx);
      const p = ctx.services.idp!;
      expect2xx(await idpAuthorize(ctx, who, { access: { aud: p.appId } }), `${opLabel(ctx, 'authorizeUser')} with aud = the configured app id`);
      const res = await idpAuthorize(ctx, who, { access: { aud: `${p.appId}-other` } });
      expectAudienceRefused(ctx, res, ['AUTH-IDP-AUDIENCE']);
    },
  },
};


