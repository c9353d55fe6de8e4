// Issue 13 "Detection depth", isolation and terminal states: real reference faults (src/reference/faults.ts)
// for company isolation on writes, user-token precedence over identity headers, a closed card that leaves
// the list yet answers actions, and the SEPA wallet-linking Primary wallet. Plus the benign readings the
// spec leaves open next to them, which the same checks must accept.

import { benign, faults, faulty, op, type VariantSpec } from '../variant.ts';

export function isolationVariants(): VariantSpec[] {
  return [
    // Section 7 S2S table: "Requested user was not found — user absent or in another company". Reads keep
    // the company scope; every user-scoped write finds company A's user with company B's token.
    faulty('isolation.cross-company.writes', 'AUTH-COMPANY-ISOLATION', "on user-scoped writes (non-GET) another company's user is found and acted on; reads stay scoped", faults('identity.cross-company-writes')),
    // The same on the card actions only (their paths are the profile's): the check must reach them with a real card.
    faulty('isolation.cross-company.card-actions', 'AUTH-COMPANY-ISOLATION', "activate, block, unblock and close find another company's user and act on its card", faults('identity.cross-company-card-actions')),
    // Section 5 step 4: a user-token call needs no identity header; the token's user is the caller.
    faulty('user-token.identity-header-wins', 'AUTH-USER-TOKEN-USE', "a user token sent with another user's X-User-Id/Email/Wallet acts as that other user", faults('user-token.identity-header-wins')),
    faulty('user-token.identity-header-wins.writes', 'AUTH-USER-TOKEN-USE', "on writes only, a user token sent with another user's identity header acts as that other user (reads stay the token's)", faults('user-token.identity-header-wins-writes')),
    // Section 3: "Close is terminal." A card once closed leaves the list (allowed: states not shown), but
    // activate, block and unblock still answer 200 and move its status: the list never shows the comeback.
    faulty('cards.closed-unlisted.actions-succeed', 'STATE-CARD-CLOSE-TERMINAL', `a closed card leaves ${op('listCards')} and activate/block/unblock on it answer 200 with a moved status`, faults('cards.closed-unlisted', 'cards.close-not-terminal')),
    benign('benign.cards.closed-unlisted', `a card once closed leaves ${op('listCards')}; actions on it are refused (card states are not shown)`, faults('cards.closed-unlisted')),
    benign('benign.cards.closed-unlisted.noop-200', `a card once closed leaves ${op('listCards')}; actions on it answer 200 with the card still closed (a no-op)`, faults('cards.closed-unlisted', 'cards.closed-actions-noop')),
    // Section 4: init returns "wallet_address (the Primary Smart Wallet that signs it)"; rule 2: resolved on the server.
    faulty('sepa.init.other-wallet', 'STATE-SEPA-INIT-RESULT', "init answers another of the user's wallets as wallet_address while the Primary signs", faults('sepa.init-other-wallet')),
    // Section 3 rule 3 gives no status for the refusal, and section 7 itself answers a missing setup with
    // 500 (ErrorConfigurationInvalid): a 500 with the section 7 body is a refusal the spec allows.
    // What must fail is a 500 that is not a section 7 answer: here the refusal's 400 body under HTTP 500.
    // ERR-CATEGORY-STATUS is judged on every answer; this refusal is asked for by one check only.
    { ...faulty('sepa.no-primary-wallet.500-mismatch', 'ERR-CATEGORY-STATUS', 'the refusal for a user without a Primary Smart Wallet answers HTTP 500 with its 400 body (error_category says 400)', faults('sepa.no-primary-wallet-500-mismatch')), reach: ['states.sepa.primary-wallet-required'] },
    benign('benign.sepa.no-primary-wallet.500', 'the refusal for a user without a Primary Smart Wallet answers 500 ErrorInternal with the section 7 body', faults('sepa.no-primary-wallet-500')),
  ];
}
