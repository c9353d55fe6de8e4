// Section 7 error rows: token endpoint, S2S, identity provider and user token tables, plus the body
// shape and category rules. Each check varies one thing against a request that otherwise succeeds,
// so exactly one row applies; expected values come from model.errorRule(id).
// Size: over 300 lines on purpose: one driver per section 7 row (31 rows) sharing the one-fault probe
// helpers; a split per section 7 table is the next step if it grows.

import fc from 'fast-check';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import type { ErrorRuleId, OperationId, RuleId } from '../../src/model/types.ts';
import { checkProperty } from '../../src/checks/property.ts';
import { PrerequisiteFailed } from '../../src/checks/prerequisite.ts';
import type { Driver, Drivers } from './driver.ts';
import {
  opLabel,
  bearer, chainHeader, check, claimPathsCarrying, expect2xx, expectError, expectErrorShape, forgeHs256, headers, identityHeader,
  jwtClaims, requestToken, rnd, s2sToken, sharedUser, tamperSignature, tokenBody, userToken, CheckFailure, idpAuthorize,
  sharedIdpUser, expectAudienceRefused, expectOneOfErrors, withoutClaim, idpHeaders, ownRowOperations, rowOnOperations, warnReading,
} from '../kit/index.ts';

// ------------------------------------------------------------------------------------------ token

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

// -------------------------------------------------------------------------------------------- S2S

/** User-agnostic reads every S2S row is also exercised on (they create nothing). */
const S2S_PROBES: OperationId[] = ['getConfig', 'getValidationRules'];
/** Further operations an S2S row is tried on, per check (picked by fast-check from every eligible one). */
const S2S_EXTRA_OPS = 4;

/**
 * Operations a section 7 S2S row applies to whose request can be made valid in every other part:
 * reads (no body) whose path the spec shows and that accept an S2S token, and user creation (its
 * body is shown). Writes with bodies the spec does not show are left out: which fault a server
 * reports first in a request with two faults is not shown.
 */
function s2sEligible(ctx: CheckContext): OperationId[] {
  return [...ctx.model.operations.values()]
    .filter((op) => !op.pathUnspecified && op.server === 'api' && (op.auth.includes('s2s') || op.auth.includes('s2s-agnostic')))
    .filter((op) => op.method.toLowerCase() === 'get' || op.operationId === 'createUserV1' || op.operationId === 'createUserV2')
    .map((op) => op.operationId);
}

/** The rule's own operations, the user-agnostic reads, and S2S_EXTRA_OPS more picked with the check's seed (same pick on every call of one check). */
function s2sProbeOps(ctx: CheckContext, ruleId: RuleId): OperationId[] {
  const base = [...new Set([...ctx.model.rule(ruleId).operations, ...S2S_PROBES])];
  const rest = s2sEligible(ctx).filter((op) => !base.includes(op));
  const k = Math.min(S2S_EXTRA_OPS, rest.length);
  const [picked] = fc.sample(fc.shuffledSubarray(rest, { minLength: k, maxLength: k }), { seed: ctx.seed, numRuns: 1 });
  return [...base, ...(picked ?? [])];
}

export interface Probe {
  op: OperationId;
  res: HttpResponse;
}

/**
 * Sends each probe operation (s2sProbeOps) with `tokenHeaders` as its only possibly faulty part:
 * user operations get X-User-Id of an existing user of client 0 and X-Chain-Id, user creation a
 * complete valid body.
 */
async function probeS2s(ctx: CheckContext, ruleId: RuleId, tokenHeaders: Record<string, string | undefined>): Promise<Probe[]> {
  const out: Probe[] = [];
  for (const op of s2sProbeOps(ctx, ruleId)) {
    const operation = ctx.model.operations.get(op);
    if (!operation) throw new Error(`rule ${ruleId} names operation ${op}, which is not in spec/openapi.yaml`);
    const extra: Record<string, string> = {};
    let body: unknown;
    if (operation.userScoped) extra[identityHeader(ctx, 'id')] = (await sharedUser(ctx)).id;
    if (op === 'createUserV1' || op === 'createUserV2') body = { email: rnd.email(), country: 'DE', user_address: rnd.address() };
    out.push({ op, res: await ctx.http.send({ op, headers: headers(chainHeader(ctx), extra, tokenHeaders), body }) });
  }
  return out;
}

/** expectError for one probe, the operation named in the failure (a row is tried on several). */
function expectRowOn(ctx: CheckContext, probe: Probe, ruleId: ErrorRuleId): void {
  try {
    expectError(ctx, probe.res, ruleId);
  } catch (err) {
    if (!(err instanceof CheckFailure)) throw err;
    const op = ctx.model.operations.get(probe.op)!;
    throw new CheckFailure(`on ${op.method.toUpperCase()} ${op.path} (${probe.op}): ${err.message}`, { rules: err.rules, response: probe.res, comparison: err.comparison });
  }
}

function s2sSecret(ctx: CheckContext): string {
  const s = ctx.profile.s2s_signing_secret;
  if (!s) ctx.skip('needs profile.s2s_signing_secret');
  return s;
}

/** Re-signs a real token's claims unchanged and checks it is accepted, so the forged variant differs in one thing only. */
async function forgedBaseline(ctx: CheckContext, ruleId: RuleId, claims: Record<string, unknown>, secret: string): Promise<void> {
  const token = await forgeHs256(claims, secret);
  for (const { op, res } of await probeS2s(ctx, ruleId, bearer(token))) {
    // Refused re-signed baseline: the secret does not match or the path is disturbed (a proxy's 429/307);
    // the check is blocked, blaming no rule, since it never reached the faulty token.
    if (res.status < 200 || res.status >= 300) {
      throw new PrerequisiteFailed(op, `profile.s2s_signing_secret does not match the target (or a probe is not valid): a re-signed copy of a real S2S token was refused with HTTP ${res.status}: ${res.text.slice(0, 200)}`, { rules: [], response: res });
    }
  }
}

function s2sForged(ruleId: ErrorRuleId, edit: (claims: Record<string, unknown>, ctx: CheckContext) => void): Driver {
  return {
    safe: false,
    needs: ['s2s_signing_secret'],
    async run(ctx) {
      const secret = s2sSecret(ctx);
      const claims = { ...jwtClaims(await s2sToken(ctx)) } as Record<string, unknown>;
      await forgedBaseline(ctx, ruleId, claims, secret);
      edit(claims, ctx);
      const token = await forgeHs256(claims, secret);
      for (const probe of await probeS2s(ctx, ruleId, bearer(token))) expectRowOn(ctx, probe, ruleId);
    },
  };
}

/** Moves exp (and iat) into the past relative to the token's own iat, so server clock offsets do not matter. */
function expire(claims: Record<string, unknown>, validity: number): void {
  const iat = typeof claims.iat === 'number' ? claims.iat : Math.floor(Date.now() / 1000);
  claims.iat = iat - validity - 3600;
  claims.exp = iat - 3600;
}

// ------------------------------------------------------------------------------------ identity provider

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
        expectError(ctx, await ctx.http.send({ op: o.op as never, headers: await idpHeaders(ctx, who, v), body: o.body }), ruleId);
      }, ops.length * variants.length + 4);
    },
  };
}

// ------------------------------------------------------------------------------------------ user token

/**
 * A user, its user token, and `call(token)`: the token sent to the rule's own operations plus one more
 * read a user token reaches, picked with the check's seed (the same pick for the baseline and the
 * faulty token), so runs cover every user-token read while each check stays at a few requests.
 */
async function userTokenSetup(ctx: CheckContext, ruleId: RuleId) {
  const user = await sharedUser(ctx);
  const token = await userToken(ctx, user);
  const own = ctx.model.rule(ruleId).operations;
  const pool = [...ctx.model.operations.values()]
    .filter((o) => o.method.toLowerCase() === 'get' && o.auth.includes('user') && !o.pathUnspecified && o.server === 'api' && !own.includes(o.operationId))
    .map((o) => o.operationId);
  const extra = pool.length ? fc.sample(fc.constantFrom(...pool), { seed: ctx.seed, numRuns: 1 }) : [];
  const ops = [...own, ...extra];
  const call = async (t: string): Promise<Probe[]> => {
    const out: Probe[] = [];
    for (const op of ops) out.push({ op, res: await ctx.http.send({ op, headers: headers(bearer(t), chainHeader(ctx)) }) });
    return out;
  };
  for (const p of await call(token)) expect2xx(p.res, `baseline: ${p.op} with a real user token`, ['AUTH-USER-TOKEN-USE']);
  let claims: Record<string, unknown>;
  try {
    claims = { ...jwtClaims(token) } as Record<string, unknown>;
  } catch {
    claims = {};
  }
  return { user, token, call, claims };
}

function userSecret(ctx: CheckContext): string {
  const s = ctx.profile.user_token_signing_secret;
  if (!s) ctx.skip('needs profile.user_token_signing_secret');
  return s;
}

async function userForgedBaseline(ctx: CheckContext, call: (t: string) => Promise<Probe[]>, claims: Record<string, unknown>, secret: string) {
  for (const { op, res } of await call(await forgeHs256(claims, secret))) {
    if (res.status < 200 || res.status >= 300) {
      throw new PrerequisiteFailed(op, `profile.user_token_signing_secret does not match the target: a re-signed copy of a real user token was refused on ${op} with HTTP ${res.status}`, { rules: [], response: res });
    }
  }
}

/** Deletes the claim(s) carrying the user's id / email / address (found by value, since the spec does not name them). */
function userClaimMissing(ruleId: ErrorRuleId, what: 'id' | 'email' | 'address'): Driver {
  return {
    safe: false,
    needs: ['user_token_signing_secret'],
    async run(ctx) {
      const secret = userSecret(ctx);
      const { user, call, claims } = await userTokenSetup(ctx, ruleId);
      const value = what === 'id' ? user.id : what === 'email' ? user.email : user.address;
      // The claim names are not shown (section 5), so the claim is found by the value it carries. Section 7
      // names a user ${what} claim: a token the target issued without one, and accepted on the baseline
      // calls above, is a token missing the claim that was not refused. That is this row failing, not a skip.
      const paths = claimPathsCarrying(claims, value);
      check(paths.length > 0, `the user token the target issued carries no claim with the user's ${what} (${value}), yet the target accepted it; section 7 refuses a user token whose ${what} claim is missing. Claims: ${Object.keys(claims).join(', ') || '(none: not a JWT)'}`, { rules: [ruleId] });
      await userForgedBaseline(ctx, call, claims, secret);
      const stripped = paths.reduce(withoutClaim, claims);
      for (const p of await call(await forgeHs256(stripped, secret))) expectRowOn(ctx, p, ruleId);
    },
  };
}

// ------------------------------------------------------------------------------- body shape, negative data

type FieldForm = 'valid' | 'missing' | 'number' | 'boolean' | 'null' | 'array' | 'object' | 'empty';
const FORMS: FieldForm[] = ['valid', 'missing', 'number', 'boolean', 'null', 'array', 'object'];
const TOKEN_FIELDS = ['client_id', 'client_secret', 'grant_type'] as const;
const MISSING_ROW: Record<string, ErrorRuleId | undefined> = {
  client_id: 'ERR-TOKEN-CLIENT-ID-MISSING',
  client_secret: 'ERR-TOKEN-CLIENT-SECRET-MISSING',
};

function formValue(form: FieldForm, valid: string, n: number): unknown {
  switch (form) {
    case 'valid': return valid;
    case 'number': return n;
    case 'boolean': return n % 2 === 0;
    case 'null': return null;
    case 'array': return [valid];
    case 'object': return { value: valid };
    default: return undefined;
  }
}

const bodyShape: Driver = {
  title: 'Token endpoint with missing and wrong-typed fields: every answer is an error with the section 7 body, its category matching the status (a 5xx where no row applies is a warning); malformed JSON: an error of any status with that body',
  safe: true,
  alsoCovers: ['ERR-CATEGORY-STATUS'],
  async run(ctx) {
    const valid = tokenBody(ctx);
    const arb = fc
      .tuple(fc.constantFrom(...FORMS), fc.constantFrom(...FORMS), fc.constantFrom(...FORMS), fc.integer())
      .filter(([a, b, c]) => !(a === 'valid' && b === 'valid' && c === 'valid'));
    let warned5xx = false; // one warning per run, not one per generated body
    await checkProperty(ctx, fc.asyncProperty(arb, async ([a, b, c, n]) => {
      const forms = [a, b, c];
      const body: Record<string, unknown> = {};
      TOKEN_FIELDS.forEach((f, i) => {
        if (forms[i] !== 'missing') body[f] = formValue(forms[i], valid[f], n);
      });
      const res = await requestToken(ctx, body);
      if (res.status < 400) throw new CheckFailure(`token endpoint accepted ${JSON.stringify(body)} with HTTP ${res.status}`, { response: res });
      expectErrorShape(ctx, res);
      // No row shows the answer to a wrongly-typed field (ERR-BODY-SHAPE reading wrong-type-status):
      // a 5xx with the section 7 body warns; where a row applies (below) the row decides.
      if (res.status >= 500 && !warned5xx) {
        warned5xx = true;
        warnReading(ctx, 'ERR-BODY-SHAPE', 'wrong-type-status', `token endpoint answered HTTP ${res.status} ${String(res.json?.error_reason)} to ${JSON.stringify(body)}`);
      }
      // Exactly one field missing and the others valid: exactly one row applies.
      const missing = forms.flatMap((f, i) => (f === 'missing' ? [TOKEN_FIELDS[i]] : []));
      const others = forms.filter((f) => f !== 'missing');
      if (missing.length === 1 && others.every((f) => f === 'valid') && MISSING_ROW[missing[0]]) expectError(ctx, res, MISSING_ROW[missing[0]]!);
    }), { numRuns: Math.min(ctx.numRuns, 40) });
    // A body that is not JSON at all must be refused, but section 7 does not show with which status
    // ("errors of endpoints other than those above: not shown"; recorded as unspecified on
    // ERR-BODY-SHAPE in spec/rules/errors.yaml): a 400 and a 500 CategoryInternalFailure are both
    // readings. Whatever the status, the answer is an error with the section 7 body whose category
    // matches that status; accepting it (2xx) or a bare 500 with no error body fails.
    const malformed = await ctx.http.send({ op: 'createToken', rawBody: '{"client_id": "x", "client_secret": ', headers: { 'Content-Type': 'application/json' } });
    check(malformed.status >= 400, `token endpoint answered HTTP ${malformed.status} to a malformed JSON body; expected an error answer with the section 7 body`, { response: malformed, rules: ['ERR-BODY-SHAPE'] });
    expectErrorShape(ctx, malformed);
    // Errors from the other tables carry the same shape.
    const more = [
      await ctx.http.send({ op: 'getConfig', headers: chainHeader(ctx) }),
      await ctx.http.send({ op: 'getUserV1', headers: headers(bearer(await s2sToken(ctx)), chainHeader(ctx)) }),
    ];
    for (const res of more) {
      check(res.status >= 400 && res.status < 500, `expected a 4xx error, got HTTP ${res.status}`, { response: res });
      expectErrorShape(ctx, res);
    }
  },
};

// ---------------------------------------------------------------------------------------------- drivers

export const drivers: Drivers = {
  'ERR-BODY-SHAPE': bodyShape,

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

  'ERR-S2S-AUTH-HEADER-MISSING': {
    title: 'No Authorization header on the rule\'s operations (user reads with a valid X-User-Id and X-Chain-Id, user creation with a valid body) and the config reads: 400 ErrorMissingField "Missing Authorization Headers"',
    safe: false,
    async run(ctx) {
      for (const probe of await probeS2s(ctx, 'ERR-S2S-AUTH-HEADER-MISSING', { Authorization: undefined })) expectRowOn(ctx, probe, 'ERR-S2S-AUTH-HEADER-MISSING');
    },
  },
  'ERR-S2S-BEARER-FORMAT': {
    safe: false,
    async run(ctx) {
      const token = await s2sToken(ctx);
      for (const auth of [token, `Token ${token}`]) {
        for (const probe of await probeS2s(ctx, 'ERR-S2S-BEARER-FORMAT', { Authorization: auth })) expectRowOn(ctx, probe, 'ERR-S2S-BEARER-FORMAT');
      }
    },
  },
  'ERR-S2S-TOKEN-EXPIRED': s2sForged('ERR-S2S-TOKEN-EXPIRED', (claims, ctx) => expire(claims, ctx.model.auth.s2s_token.validity_seconds)),
  'ERR-S2S-SIGNATURE-INVALID': {
    title: 'S2S token with an altered signature, and one signed with another key, on the rule\'s operations and the config reads: 401 ErrorPermissionDenied "Token signature is not valid" (no secret needed)',
    safe: false,
    async run(ctx) {
      const token = await s2sToken(ctx);
      const variants = [tamperSignature(token), await forgeHs256({ ...jwtClaims(token) }, `not-the-secret-${rnd.hex(16)}`)];
      for (const t of variants) {
        for (const probe of await probeS2s(ctx, 'ERR-S2S-SIGNATURE-INVALID', bearer(t))) expectRowOn(ctx, probe, 'ERR-S2S-SIGNATURE-INVALID');
      }
    },
  },
  'ERR-S2S-AZP-MISSING': s2sForged('ERR-S2S-AZP-MISSING', (claims) => {
    delete claims.azp;
  }),
  'ERR-S2S-COMPANY-ID-MISSING': s2sForged('ERR-S2S-COMPANY-ID-MISSING', (claims) => {
    delete claims.company_id;
  }),

  'ERR-IDP-AUTH-HEADER-MISSING': idpRow('ERR-IDP-AUTH-HEADER-MISSING', [{ omitAuthorization: true }]),
  'ERR-IDP-IDENTITY-HEADER-MISSING': idpRow('ERR-IDP-IDENTITY-HEADER-MISSING', [{ omitIdentity: true }]),
  'ERR-IDP-ACCESS-TOKEN-EXPIRED': idpRow('ERR-IDP-ACCESS-TOKEN-EXPIRED', [{ access: { expiresIn: -3600 } }]),
  'ERR-IDP-ID-TOKEN-EXPIRED': idpRow('ERR-IDP-ID-TOKEN-EXPIRED', [{ identity: { expiresIn: -3600 } }]),
  'ERR-IDP-ACCESS-TOKEN-SIGNATURE': idpRow('ERR-IDP-ACCESS-TOKEN-SIGNATURE', [{ access: { badSignature: true } }]),
  'ERR-IDP-ID-TOKEN-SIGNATURE': idpRow('ERR-IDP-ID-TOKEN-SIGNATURE', [{ identity: { badSignature: true } }]),
  'ERR-IDP-LINKED-ACCOUNTS-MISSING': idpRow('ERR-IDP-LINKED-ACCOUNTS-MISSING', [{ identity: { omitLinkedAccounts: true } }]),
  'ERR-IDP-IDENTIFIERS-INCOMPLETE': {
    title: 'Identity token whose linked_accounts lack the email: 400 ErrorMissingField "Not all identifiers found in linked accounts"; lacking the wallet: that row or "Linked accounts claim is missing" (both causes read "no wallet")',
    safe: false,
    needs: ['idp'],
    async run(ctx) {
      const who = await sharedIdpUser(ctx);
      expect2xx(await idpAuthorize(ctx, who), `baseline: ${opLabel(ctx, 'authorizeUser')} with valid provider tokens`, ['AUTH-IDP-EXCHANGE']);
      // Both operations the row names (suites/kit/rows.ts), each with the email and the wallet left out.
      const ops = ownRowOperations(ctx, 'ERR-IDP-IDENTIFIERS-INCOMPLETE', { registerRetailUser: { country: 'DE' } });
      const omits = [{ identity: { omitEmail: true } }, { identity: { omitWallet: true } }];
      await rowOnOperations(ctx, ops, fc.constantFrom(...omits), () => omits, async (o, v) => {
        const res = await ctx.http.send({ op: o.op as never, headers: await idpHeaders(ctx, who, v), body: o.body });
        if (v.identity.omitEmail) expectError(ctx, res, 'ERR-IDP-IDENTIFIERS-INCOMPLETE');
        // No wallet entry (neither the EOA nor the smart_wallet) fits two section 7 causes: "email or wallet absent" and "no wallet linked".
        else expectOneOfErrors(ctx, res, ['ERR-IDP-IDENTIFIERS-INCOMPLETE', 'ERR-IDP-LINKED-ACCOUNTS-MISSING'], ['ERR-IDP-IDENTIFIERS-INCOMPLETE']);
      }, ops.length * omits.length + 4);
    },
  },
  'ERR-IDP-APP-NOT-REGISTERED': {
    title: 'Access token whose aud is an application id no company has configured: 500 ErrorConfigurationInvalid "Client application not registered" (or a 401 refusal, the reading of an aud mismatch)',
    safe: false,
    needs: ['idp'],
    async run(ctx) {
      const who = await sharedIdpUser(ctx);
      expect2xx(await idpAuthorize(ctx, who), `baseline: ${opLabel(ctx, 'authorizeUser')} with valid provider tokens`, ['AUTH-IDP-EXCHANGE']);
      // Both operations the row names (suites/kit/rows.ts), picked by fast-check after one run each.
      const ops = ownRowOperations(ctx, 'ERR-IDP-APP-NOT-REGISTERED', { registerRetailUser: { country: 'DE' } });
      await rowOnOperations(ctx, ops, fc.constant(null), () => [null], async (o) => {
        const res = await ctx.http.send({ op: o.op as never, headers: await idpHeaders(ctx, who, { access: { aud: `conform-unregistered-${rnd.hex(6)}` } }), body: o.body });
        expectAudienceRefused(ctx, res, ['ERR-IDP-APP-NOT-REGISTERED']);
      }, ops.length + 2);
    },
  },

  'ERR-USER-TOKEN-EXPIRED': {
    safe: false,
    needs: ['user_token_signing_secret'],
    async run(ctx) {
      const secret = userSecret(ctx);
      const { call, claims } = await userTokenSetup(ctx, 'ERR-USER-TOKEN-EXPIRED');
      check(Object.keys(claims).length > 0, 'the user token is not a JWT (section 2: access_token is a JWT); an expired copy cannot be forged', { rules: ['ERR-USER-TOKEN-EXPIRED'] });
      await userForgedBaseline(ctx, call, claims, secret);
      const iat = typeof claims.iat === 'number' ? claims.iat : Math.floor(Date.now() / 1000);
      claims.iat = iat - 7200;
      claims.exp = iat - 3600;
      for (const p of await call(await forgeHs256(claims, secret))) expectRowOn(ctx, p, 'ERR-USER-TOKEN-EXPIRED');
    },
  },
  'ERR-USER-TOKEN-SIGNATURE': {
    title: 'User token with an altered signature, and one signed with another key: 401 ErrorPermissionDenied "Token signature is not valid"',
    safe: false,
    async run(ctx) {
      const { token, call, claims } = await userTokenSetup(ctx, 'ERR-USER-TOKEN-SIGNATURE');
      // Section 2: access_token is a JWT (the user-token answer carries the same Token fields), so a token that is not one is no reason to skip.
      check(token.split('.').length === 3, "the user token is not a compact JWT (section 2: access_token is a JWT)", { rules: ['ERR-USER-TOKEN-SIGNATURE'] });
      for (const p of await call(tamperSignature(token))) expectRowOn(ctx, p, 'ERR-USER-TOKEN-SIGNATURE');
      if (Object.keys(claims).length > 0) {
        for (const p of await call(await forgeHs256(claims as any, `not-the-secret-${rnd.hex(16)}`))) expectRowOn(ctx, p, 'ERR-USER-TOKEN-SIGNATURE');
      }
    },
  },
  'ERR-USER-TOKEN-USER-ID-MISSING': userClaimMissing('ERR-USER-TOKEN-USER-ID-MISSING', 'id'),
  'ERR-USER-TOKEN-EMAIL-MISSING': userClaimMissing('ERR-USER-TOKEN-EMAIL-MISSING', 'email'),
  'ERR-USER-TOKEN-ADDRESS-MISSING': userClaimMissing('ERR-USER-TOKEN-ADDRESS-MISSING', 'address'),
};
