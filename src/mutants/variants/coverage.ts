// Variants added so every testable rule has a fault that proves its check (mutation coverage by
// rule), and every reference fault point is used. Fault points first; the proxy where
// the request must be seen; response transforms last.

import { randomUUID } from 'node:crypto';
import { IDP_OPS } from '../ops.ts';
import { has, onAliasWebhook, proxyError, proxyJson, refuseAliasOnly, resignedToken } from '../proxy-edits.ts';
import { asRecord, field, isObject, JSON_TYPE, onRule, onOk, parse, restatus, type Json } from '../transforms.ts';
import { faults, faulty, op, type VariantSpec } from '../variant.ts';

/** Who a request acts for, as far as its headers say (token plus identity header). */
const identityKey = (h: Record<string, string>) => [h.authorization, h['x-user-wallet'], h['x-user-email'], h['x-user-id']].join('|');

const decodeJwt = (t: string): { header: Json; payload: Json } | undefined => {
  const [h, p] = t.split('.');
  const header = parse(Buffer.from(h, 'base64url').toString());
  const payload = parse(Buffer.from(p ?? '', 'base64url').toString());
  return header === undefined || payload === undefined ? undefined : { header, payload };
};

export function coverageVariants(): VariantSpec[] {
  return [
    // ------------------------------------------------------------- fault points not used before
    faulty('token.response.no-token-type', 'AUTH-S2S-TOKEN-RESPONSE', 'the S2S token response lacks token_type', faults('token.missing-token-type')),
    faulty('s2s.signature.skipped', 'ERR-S2S-SIGNATURE-INVALID', 'the server does not verify the HMAC signature of S2S tokens (any HS256-shaped token is accepted)', faults('s2s.skip-signature')),
    faulty('s2s.expiry.skipped', 'ERR-S2S-TOKEN-EXPIRED', 'the server does not check exp (expired tokens are accepted)', faults('s2s.skip-expiry')),
    faulty('user-token.claims.skipped', 'ERR-USER-TOKEN-EMAIL-MISSING', 'the server does not require the user id, email and address claims of user tokens', faults('user-token.skip-claims')),
    faulty('alias.responses.deprecated-dropped', 'ALIAS-DEPRECATED-NOT-REMOVED', 'responses and webhooks carry only the preferred names (every deprecated alias removed)', faults('alias.drop-deprecated')),
    faulty('alias.responses.stale-values', 'ALIAS-DEPRECATED-NOT-REMOVED', 'every deprecated alias carries a value different from its preferred name', faults('alias.different-values')),
    faulty('alias.webhooks.deprecated-dropped', 'ALIAS-WEBHOOK-USER-ID', 'webhook payloads carry only the preferred names', faults('webhooks.drop-aliases')),
    faulty('errors.category.status-mismatch-everywhere', 'ERR-CATEGORY-STATUS', 'every error body carries an http_status_code other than the HTTP status', faults('errors.category-mismatch')),
    faulty('3ds.decision.lost-update', 'STATE-3DS-NO-REPLAY', 'a 3DS decision is read-await-write: concurrent decisions of one challenge all succeed', faults('3ds.lost-update')),

    // ------------------------------------------------------------------------- identity provider
    faulty('idp.auth-header-missing.401', 'ERR-IDP-AUTH-HEADER-MISSING', 'the IdP exchange without Authorization answers 401 instead of 400', {}, {
      response(req, res) {
        if (req.operationId !== 'authorizeUser' && req.operationId !== 'registerRetailUser') return;
        if (req.headers.authorization !== undefined || req.headers.identity === undefined || res.status !== 400 || !isObject(res.json)) return;
        res.json.error_category = { category: 'CategoryUnauthorized', http_status_code: 401 };
        return proxyJson({ ...res, status: 401 }, res.json);
      },
    }),
    faulty('idp.access-token-expired.wrong-reason', 'ERR-IDP-ACCESS-TOKEN-EXPIRED', 'an expired provider access token answers reason ErrorPermissionDenied instead of ErrorExpired', {
      transform: onRule('ERR-IDP-ACCESS-TOKEN-EXPIRED', (b) => void (b.error_reason = 'ErrorPermissionDenied'), IDP_OPS),
    }),
    faulty('idp.id-token-signature.400', 'ERR-IDP-ID-TOKEN-SIGNATURE', 'a bad identity-token signature answers 400 instead of 401', {
      transform: onRule('ERR-IDP-ID-TOKEN-SIGNATURE', (b, res) => restatus(b, res, 400), IDP_OPS),
    }),
    faulty('idp.exchange.refused', 'AUTH-IDP-EXCHANGE', 'valid provider tokens are refused at the exchange (401 ErrorPermissionDenied)', {}, {
      request(req) {
        if (req.operationId === 'authorizeUser' && req.headers.identity !== undefined) {
          return proxyError(401, 'ErrorPermissionDenied', 'provider tokens refused');
        }
      },
    }),
    faulty('idp.retail.wrong-id', 'ENDPOINT-RETAIL-REGISTER', `${op('registerRetailUser')} returns an id that is not the registered user`, {
      transform: onOk(['registerRetailUser'], (b) => void (has(b, 'id') && (b.id = randomUUID()))),
    }),

    // ------------------------------------------------------------------------------- S2S, identity
    faulty('s2s.claims.scope-read', 'AUTH-S2S-TOKEN-CLAIMS', 'S2S tokens carry scope "partner:read" instead of "partner:full" (validly signed)', {}, resignedToken('createToken', 's2s_signing_secret', (c) => void (c.scope = 'partner:read'))),
    faulty('s2s.bearer.config-refused', 'AUTH-S2S-BEARER-ACCEPTED', `${op('getConfig')} refuses a valid S2S Bearer token (401)`, {}, {
      request(req) {
        if ((req.operationId === 'getConfig' || req.operationId === 'getValidationRules') && /^Bearer /.test(req.headers.authorization ?? '')) {
          return proxyError(401, 'ErrorPermissionDenied', 'token refused');
        }
      },
    }),
    faulty('s2s.user-agnostic.identity-required', 'AUTH-USER-AGNOSTIC', `${op('createUserV1')} requires a user identity header`, {}, {
      request(req) {
        if (req.operationId === 'createUserV1' && !req.headers['x-user-wallet'] && !req.headers['x-user-email'] && !req.headers['x-user-id']) {
          return proxyError(400, 'ErrorMissingField', 'a user identity header is required here', 'user_identifier');
        }
      },
    }),
    faulty('identity.email.not-accepted', 'AUTH-IDENTITY-HEADER-KINDS', 'X-User-Email does not identify the user (400 no valid user identifier)', {}, {
      request(req) {
        if (req.headers['x-user-email'] !== undefined && !req.headers['x-user-wallet'] && !req.headers['x-user-id'] && !req.path.startsWith('/__control')) {
          return proxyError(400, 'ErrorMissingField', 'a user identity header is required here', 'user_identifier');
        }
      },
    }),
    faulty('user-token.use.identity-required', 'AUTH-USER-TOKEN-USE', 'calls with a user token still require a user identity header', {}, {
      request(req) {
        const auth = req.headers.authorization ?? '';
        if (!/^Bearer /.test(auth) || req.headers['x-user-wallet'] || req.headers['x-user-email'] || req.headers['x-user-id'] || req.path.startsWith('/__control')) return;
        const jwt = decodeJwt(auth.slice(7));
        // A user token: its claims name a user (S2S tokens carry azp/company_id and no user claims).
        if (!jwt || field(jwt.payload, 'azp') !== undefined) return;
        return proxyError(400, 'ErrorMissingField', 'a user identity header is required here', 'user_identifier');
      },
    }),

    // ------------------------------------------------------------------------------ endpoints
    faulty('users.config.404', 'ENDPOINT-CONFIG-READS', `${op('getConfig')} answers 404`, {}, {
      request(req) {
        if (req.operationId === 'getConfig') return { status: 404, headers: { 'content-type': JSON_TYPE }, body: '{}', json: {} };
      },
    }),
    // Issue 18: a list with no wallet is a skip (no provisioning time is shown); a listed wallet of the
    // wrong shape is the fault users.wallets.read judges.
    faulty('users.wallets.no-wallet-address', 'ENDPOINT-WALLETS', `${op('listWallets')} lists wallets under \`address\` instead of wallet_address`, {
      transform: onOk(['listWallets'], (b) => {
        const rename = (w: Json) => {
          if (!isObject(w) || !('wallet_address' in w)) return w;
          const { wallet_address, ...rest } = w;
          return { ...rest, address: wallet_address };
        };
        return Array.isArray(b) ? b.map(rename) : isObject(b) && Array.isArray(b.data) ? { ...b, data: b.data.map(rename) } : b;
      }),
    }),
    faulty('version.v1-user.gone', 'VERSION-COEXIST', `${op('getUserV1')} is gone (404) now that v2 exists`, {}, {
      request(req) {
        if (req.operationId === 'getUserV1') return { status: 404, headers: { 'content-type': JSON_TYPE }, body: '{}', json: {} };
      },
    }),
    faulty('bank.chain.numeric-string-refused', 'ENDPOINT-CHAIN-NUMERIC-STRING', 'init and complete refuse chain sent as a numeric string (they want a number)', {}, {
      request(req) {
        if ((req.operationId === 'initBankAccount' || req.operationId === 'completeBankAccount') && typeof field(req.json, 'chain') === 'string') {
          return proxyError(400, 'ErrorInvalidField', 'chain must be a number', 'chain_id');
        }
      },
    }),
    faulty('bank.primary-wallet.client-must-send', 'ENDPOINT-PRIMARY-WALLET-SERVER', 'init requires the client to send the Primary wallet_address', {}, {
      request(req) {
        if (req.operationId === 'initBankAccount' && !has(req.json, 'wallet_address')) {
          return proxyError(400, 'ErrorMissingField', 'wallet_address is required', 'wallet_address');
        }
      },
    }),

    // ------------------------------------------------------------------------------------- states
    faulty('3ds.pending.not-decidable', 'STATE-3DS-DECIDE-PENDING', 'a pending challenge cannot be decided by its own user (400 ErrorNotFound)', {}, {
      response(req, res) {
        if (req.method !== 'POST' || (req.operationId !== 'approve3ds' && req.operationId !== 'decline3ds') || res.status < 200 || res.status >= 300 || req.path.startsWith('/__control')) return;
        return proxyError(400, 'ErrorNotFound', 'Requested transaction was not found');
      },
    }),

    faulty('sepa.direct.stays-not-started', 'STATE-SEPA-DIRECT-ACTIVATION', 'direct activation returns details_id, but the capability of that user stays ActivationNotStarted', {}, {
      response(req, res, ctx) {
        const done = (ctx.state.get('direct') as Set<string> | undefined) ?? new Set<string>();
        ctx.state.set('direct', done);
        const key = identityKey(req.headers);
        const ok = res.status >= 200 && res.status < 300;
        if (ok && req.operationId === 'createBankAccount' && field(req.json, 'account_type') === 'Sepa') done.add(key);
        const user = asRecord(res.json);
        if (!ok || req.operationId !== 'getUserV2' || !done.has(key) || !user || !Array.isArray(user.capabilities)) return;
        for (const c of user.capabilities) if (isObject(c) && c.type === 'SepaAccount' && c.status === 'InProgress') c.status = 'ActivationNotStarted';
        return proxyJson(res, user);
      },
    }),
    faulty('sepa.complete.no-details-id', 'STATE-SEPA-WALLET-LINK-ACTIVATION', `${op('completeBankAccount')} answers 200 without details_id`, {
      transform: onOk(['completeBankAccount'], (b) => void (isObject(b) && delete b.details_id)),
    }),

    // ------------------------------------------------------------------------------- transport
    faulty('schema.config.not-json', 'GENERAL-TRANSPORT-JSON', `${op('getConfig')} answers a body that is not JSON (under a JSON content type)`, {
      transform: (req, res) => {
        if (req.operationId === 'getConfig' && res.status >= 200 && res.status < 300) res.body = 'config=1&mode=sandbox';
      },
    }),
    faulty('webhooks.delivery.text-plain', 'EVENT-WEBHOOK-DELIVERY', 'webhooks are delivered with Content-Type text/plain instead of JSON', {}, {
      webhook: (_p, body) => body,
      webhookContentType: 'text/plain; charset=utf-8',
    }),

    // ------------------------------------------------------------------------------------ aliases
    faulty('alias.user-create-v1.deprecated-only-refused', 'ALIAS-USER-CREATE-WALLET-ADDRESS-V1', 'user creation (v1) with only the deprecated wallet_address is refused', {}, refuseAliasOnly('createUserV1', 'ALIAS-USER-CREATE-WALLET-ADDRESS-V1')),
    faulty('alias.statement.account-address-only-refused', 'ALIAS-STATEMENT-ACCOUNT-ADDRESS', 'the statement request with only the deprecated account_address is refused', {}, refuseAliasOnly('getFullStatement', 'ALIAS-STATEMENT-ACCOUNT-ADDRESS')),
    faulty('alias.recipient.address-dropped', 'ALIAS-RECIPIENT-ADDRESS', 'recipient answers omit the deprecated address of crypto payment details', {
      transform: onOk(['createRecipientV2'], (b) => {
        const strip = (o: Json | undefined) => has(o, 'recipient_address') && delete o.address;
        strip(b);
        const pd = field(b, 'payment_details');
        for (const p of Array.isArray(pd) ? pd : [pd]) strip(p);
      }),
    }),
    faulty('alias.webhook.withdrawal-account-address-dropped', 'ALIAS-WEBHOOK-WITHDRAWAL-ACCOUNT-ADDRESS', 'the ERC-20 withdrawal webhook omits the deprecated account_address', {}, {
      webhook: onAliasWebhook('ALIAS-WEBHOOK-WITHDRAWAL-ACCOUNT-ADDRESS', (b, old) => void delete b[old]),
    }),
    faulty('alias.webhook.recipient-address-dropped', 'ALIAS-WEBHOOK-RECIPIENT-ADDRESS', 'the recipients webhook omits the deprecated address', {}, {
      webhook: onAliasWebhook('ALIAS-WEBHOOK-RECIPIENT-ADDRESS', (b, old) => void delete b[old]),
    }),
    faulty('alias.mismatch.error-422', 'ERR-ALIAS-MISMATCH', 'mismatching old and new field names answer 422 instead of 400', {}, {
      response(req, res) {
        // The reference's mismatch error names both fields of the pair in error_details.
        const body = asRecord(res.json);
        const d = body?.error_details;
        if (!body || res.status !== 400 || !Array.isArray(d) || d.filter((x) => field(x, 'key') === 'field').length !== 2 || req.path.startsWith('/__control')) return;
        body.error_category = { ...asRecord(body.error_category), http_status_code: 422 };
        return proxyJson({ ...res, status: 422 }, body);
      },
    }),
  ];
}
