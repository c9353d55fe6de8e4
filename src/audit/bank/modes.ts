// The sample client's switches. `none` is the conforming client; each faulty switch breaks exactly one
// client rule (the bank: the audit must name that rule and no other); each benign switch changes
// something the spec leaves free (the audit must stay clean). A faulty switch that only bends what an
// API call sends is its FAULTY entry and its BEND entry here, and nothing else.

import type { ClientRuleId, Model, Operation } from '../../model/index.ts';

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

/** An API call of the sample client's flow (flow.ts) as it is about to go out: a bend edits it in place. */
export interface OutgoingCall {
  op: Operation;
  headers: Record<string, string>;
  body?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Faulty switches that bend only what an API call sends, applied by flow.ts to every call to base_url. */
export const BEND: Partial<Record<FaultyMode, (call: OutgoingCall, model: Model) => void>> = {
  'no-chain-header': (c, m) => {
    delete c.headers[m.auth.chain_header];
  },
  'chain-header-name': (c, m) => {
    if (c.headers[m.auth.chain_header] !== undefined) c.headers[m.auth.chain_header] = 'base-sepolia';
  },
  'chain-number': (c, m) => {
    const field = m.clientRule('CLIENT-CHAIN-STRING').facts.field;
    if (isRecord(c.body) && typeof c.body[field] === 'string') c.body = { ...c.body, [field]: Number(c.body[field]) };
  },
};
export type BenignMode = (typeof BENIGN)[number];
export type ClientMode = 'none' | FaultyMode | BenignMode;

export const isClientMode = (s: string): s is ClientMode => s === 'none' || s in FAULTY || (BENIGN as readonly string[]).includes(s);
