// The sample client's switches. `none` is the conforming client; each faulty switch breaks exactly one
// client rule (the bank: the audit must name that rule and no other); each benign switch changes
// something the spec leaves free (the audit must stay clean).

import type { ClientRuleId } from '../../model/index.ts';

export const FAULTY = {
  'no-backoff': 'CLIENT-TOKEN-BACKOFF', // retries a 429 at once (still honours Retry-After when given)
  'fixed-retry': 'CLIENT-TOKEN-BACKOFF', // retries a 429 after a fixed 100 ms
  'ignore-retry-after': 'CLIENT-RETRY-AFTER', // backs off, but ignores Retry-After
  'token-per-call': 'CLIENT-TOKEN-CACHE', // a new S2S token before every call
  'no-refresh': 'CLIENT-TOKEN-REFRESH-BUFFER', // keeps the token until a 401, then renews it
  'late-refresh': 'CLIENT-TOKEN-REFRESH-BUFFER', // renews a fifth of the buffer before expiry, not the buffer
  'no-timeout': 'CLIENT-REQUEST-TIMEOUT', // waits for an answer however long it takes
  'short-timeout': 'CLIENT-REQUEST-TIMEOUT', // gives up after a fifth of the timeout
  'no-chain-header': 'CLIENT-CHAIN-HEADER', // never sends the chain header
  'chain-header-name': 'CLIENT-CHAIN-HEADER', // a chain name instead of the numeric id
  'two-identity-headers': 'CLIENT-ONE-IDENTITY-HEADER', // wallet and email headers on S2S user calls
  'smart-wallet-header': 'CLIENT-WALLET-HEADER-EOA', // the Smart Wallet address in the wallet header
  'deprecated-names': 'CLIENT-PREFERRED-NAMES', // only the deprecated request names
  'mismatching-pair': 'CLIENT-ALIAS-PAIR-MATCH', // both names of a pair, different values
  'pan-to-base': 'CLIENT-PAN-PCI-ONLY', // posts the card to base_url before pci_url
  'chain-number': 'CLIENT-CHAIN-STRING', // chain as a JSON number
  'webhook-strict': 'CLIENT-WEBHOOK-ACCEPT', // the receiver refuses repeats and unknown fields
} as const satisfies Record<string, ClientRuleId>;

export const BENIGN = [
  'header-case', // header names in other letter cases
  'no-keepalive', // a new connection per request
  'equal-jitter', // another exponential backoff (half fixed, half random; the other modes use it too, see http.ts)
  'extra-fields', // optional and unknown extra request fields, the optional audience on the token call
  'both-names', // preferred and deprecated names together, same values
] as const;

export type FaultyMode = keyof typeof FAULTY;
export type BenignMode = (typeof BENIGN)[number];
export type ClientMode = 'none' | FaultyMode | BenignMode;

export const isClientMode = (s: string): s is ClientMode => s === 'none' || s in FAULTY || (BENIGN as readonly string[]).includes(s);
