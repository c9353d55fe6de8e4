// Mutant-bank hooks. Each fault point is one named deviation from the spec that a mutant variant
// switches on through `opts.faults`. Checks are centralised here so that the handlers read
// `this.fault('...')` at a single place per point and a fault-free server pays one Set lookup.

export const FAULT_POINTS = [
  // --- Token endpoint (section 5 / 7 token table / 8) ---
  'token.accept-any-grant-type', // grant_type is not checked
  'token.wrong-validity', // exp = iat + 3600 instead of 172800
  'token.missing-token-type', // response lacks token_type
  'token.wrong-error-order', // credentials checked before grant_type
  'ratelimit.disabled', // token endpoint never answers 429
  'ratelimit.no-retry-after', // 429 without Retry-After
  'ratelimit.per-ip-only', // no per-client limit: a client spread over addresses is never refused
  'ratelimit.per-client-only', // no per-IP limit: clients from one address are limited only each on its own
  // --- S2S / user token validation (section 7) ---
  's2s.skip-signature', // any HS256-shaped token is accepted (signature not checked)
  's2s.skip-expiry', // expired tokens accepted
  's2s.short-validity', // S2S tokens refused as expired once 24 h old, before their 48 h exp
  's2s.expired-as-400', // expired token answers 400 instead of 401
  'chain.optional', // X-Chain-Id not required on user calls
  'chain.optional-token-forms', // X-Chain-Id not required with a user token or on the identity-provider form (still on S2S calls)
  'chain.any-value', // not a fault (a reading of section 5): a present X-Chain-Id is accepted whatever its value (benign.chain.non-numeric-accepted; the check warns)
  'identity.allow-multiple', // several identity headers accepted (first wins)
  'identity.wallet-matches-smart-wallet', // X-User-Wallet also matches the Smart Wallet address
  'identity.cross-company', // lookups ignore company_id (isolation broken)
  'identity.cross-company-writes', // on non-GET user calls only, the S2S identity lookup ignores company_id
  'identity.cross-company-card-actions', // on card actions (activate, block, unblock, close) only, the same
  'user-token.identity-header-wins', // a user token with an X-User-* header acts as the header's user
  'user-token.identity-header-wins-writes', // the same on non-GET calls only
  'user-token.skip-claims', // user token missing claims accepted
  'user-token.expires-ms', // user-token expires_at in milliseconds instead of Unix seconds
  'user-token.token-type', // user-token answer also carries token_type (section 2: carries only access_token, expires_at)
  // --- Users, versioning, aliases (sections 2, 9) ---
  'user.v1-capabilities', // GET /api/v1/user returns capabilities
  'user.v2-no-capabilities', // GET /api/v2/user omits capabilities
  'alias.drop-deprecated', // responses carry only the preferred names
  'alias.different-values', // deprecated alias carries a different value
  'alias.accept-mismatch', // mismatching alias pairs in requests accepted
  // --- States (section 3) ---
  'sepa.allow-wrong-path', // both activation paths accepted in any status
  'sepa.no-primary-wallet-check', // wallet-linking completes without a Primary Smart Wallet
  'sepa.chain-field-named-chain', // chain validation error names `chain` instead of `chain_id`
  'sepa.wrong-path-500', // wrong path answers 500
  'sepa.no-primary-wallet-500', // the missing-Primary refusal answers 500 (section 7 body; status not shown)
  'sepa.no-primary-wallet-500-mismatch', // the same refusal answers HTTP 500 with its 400 body (category says 400)
  'sepa.init-other-wallet', // init returns another of the user's wallets (not the Primary) as wallet_address
  '3ds.allow-replay', // a decided challenge can be decided again
  '3ds.ignore-expiry', // expired challenges can be decided
  '3ds.window-short', // decision window 60 s instead of 5 minutes (section 8)
  '3ds.window-long', // decision window 10 minutes instead of 5 (section 8)
  '3ds.auth-401', // approve/decline answer 401 on token failures
  '3ds.lost-update', // decision is read-await-write (race: several decisions win)
  '3ds.other-user', // lookup not scoped to the caller's user
  'cards.close-not-terminal', // actions on a closed card succeed
  'cards.closed-unlisted', // a card once closed leaves GET /api/v1/cards (soft delete; card states not shown)
  'cards.closed-actions-noop', // actions on a closed card answer 200 with the card unchanged (a no-op)
  'cards.block-noop', // block answers 200 with the card unchanged: it stays as it was (no effect)
  'cards.unblock-noop', // unblock answers 200 with the card unchanged: a blocked card stays blocked
  'cards.close-noop', // close answers 200 with the card unchanged: it stays usable
  'cards.activate-noop', // activate answers 200 with the card unchanged: a blocked card stays blocked
  'cards.created-inactive', // not a fault (card states are not shown): cards are created Inactive, and block is refused (400) until activate
  'cards.unblock-inactive', // not a fault (which status unblock leaves is not shown): unblock leaves the card Inactive (warns under reading unblock-other-status)
  'cards.unblock-refused', // not a fault (transitions are not shown): unblock is refused (400) (warns under reading unblock-refused)
  'cards.effects-deferred', // not a fault (when an action shows is not shown): GET /api/v1/cards shows an action's new status only 1 s after it
  // --- Transfers and concurrency ---
  'recipients.lost-update', // recipient creation is read-await-write on a shared list (lost updates)
  // --- Webhooks (section 6) ---
  // --- Issue 33 operations whose paths the spec does not show ---
  'cards.sensitive.no-action-token', // PAN and CVV are served without an action_token (section 4: each takes one)
  'recipients.delete-noop', // deleting a recipient answers 200 and keeps it: it stays readable
  'webhooks.no-activity', // card transfer completion emits no activity webhook
  'webhooks.no-bank-account', // SEPA activation emits no bank account webhook
  'webhooks.drop-aliases', // webhook payloads carry only preferred names
  'webhooks.debt-cases-wrong-path', // debt case webhooks go to /v2/webhooks/debt_cases instead of /v2/webhooks/debt-cases (section 6)
  'webhooks.corporations-wrong-path', // corporation webhooks go to /v2/webhooks/corporation instead of /v2/webhooks/corporations (section 6)
  'webhooks.card-limit-owner', // the card limit webhook carries an owner field (section 6: it carries none)
  // --- Bad input / errors (section 7) ---
  'input.malformed-json-500', // NOT a fault: malformed JSON answers 500 with the section 7 body (a freedom; section 7 does not show that answer): the switch of benign.malformed-json-500
  'input.malformed-json-bare-500', // malformed JSON answers a bare 500 with no error body (breaks ERR-BODY-SHAPE)
  'errors.category-mismatch', // error_category.http_status_code differs from the HTTP status
  'withdrawal.valid-after-now', // valid_after = request time (no delay)
  'retail.returns-token', // POST /api/v1/user/retail also answers a user token (section 4 rule 5: returns only id)
  'webhooks.user-on-trigger-only', // user creation and updates emit no user webhook; only control triggerWebhook does (benign: section 6 gives no emission rule)
  'webhooks.user-legacy-path', // user webhooks go to the legacy /webhook/users instead of /v2/webhooks/user (section 6)
  'withdrawal.pending-label', // a pending request reads status Pending instead of Requested (section 2/3)
  // --- Issue 13 detection depth (cover): feeds, audience, IdP address, wallets webhooks ---
  'token.refuse-audience', // a token request carrying the optional audience is refused
  'activity.wrong-enum', // activity items carry direction "Outgoing" (not an enum value)
  'activity.bare-array', // the activity feed answers a bare array instead of { data: [...] }
  'idp.user-address-not-linked', // retail registration stores a fresh address, not the linked smart_wallet
  'webhooks.wallets-renamed', // wallets and balances webhooks carry account_address instead of wallet_address
  'identity.multiple-on-card-create', // several identity headers accepted (first wins) on POST /api/v1/cards/virtual only
  'idp.retail-id-expiry-ignored', // POST /api/v1/user/retail accepts an expired provider identity token
  'idp.retail-email-optional', // POST /api/v1/user/retail accepts an identity token that links no email
  // --- Issue 18 readings: NOT faults, the switches of benign variants (variants/readings.ts) ---
  'token.audience-validated', // NOT a fault: a token request's audience, when sent, must be the value the profile publishes (REFERENCE_TOKEN_AUDIENCE)
  'sepa.active-refused', // direct activation when Active answers the wrong-path 400 instead of retrieving the details
  'sepa.active-new-details-id', // NOT a fault: every direct activation when Active answers a new details_id
  'idp.unknown-aud-401', // NOT a fault: an access token whose aud names an application this server never knew answers 401 (a token not meant for it); one configured and then cleared answers the 500 row
  'idp.user-address-eoa', // NOT a fault: the provider identity's wallet is the linked EOA (type wallet), not the smart_wallet
] as const;

export type FaultPoint = (typeof FAULT_POINTS)[number];

const NONE: ReadonlySet<string> = new Set();

/** Returns a cheap predicate `fault(name)` over the configured set. */
export function faultChecker(faults: ReadonlySet<string> | undefined): (name: FaultPoint) => boolean {
  const set = faults && faults.size > 0 ? faults : NONE;
  if (set === NONE) return () => false;
  for (const f of set) {
    if (!(FAULT_POINTS as readonly string[]).includes(f)) throw new Error(`unknown fault point: ${f}`);
  }
  return (name) => set.has(name);
}
