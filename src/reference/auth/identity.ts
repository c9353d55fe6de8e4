// Section 5 user identity on S2S calls: X-Chain-Id, then exactly one of the identity headers
// (names from the model: model.auth.chain_header, model.auth.identity_headers), scoped to the company.

import type { Ctx } from '../http.ts';
import { header } from '../http.ts';
import type { RefState } from '../state/index.ts';
import type { Company, User } from '../state/store.ts';

/** The card actions of section 4 (paths not shown), for the `identity.cross-company-card-actions` fault. */
const CARD_ACTIONS: ReadonlySet<string> = new Set(['activateCard', 'blockCard', 'unblockCard', 'closeCard']);

type HeaderNames = { wallet: string; email: string; id: string; chain: string; chainLower: string; /** The X-Chain-Id schema pattern of spec/openapi.yaml. */ chainPattern: RegExp };
/** Header names by model, resolved on first use: the request path reads a table, not the model. */
const NAMES = new WeakMap<RefState['model'], HeaderNames>();
/** The last model asked about and its names: every request of a server asks about the same model. */
let last: { model: RefState['model']; names: HeaderNames } | undefined;

/** The identity header of each kind, found by its name in the model (X-User-Wallet, X-User-Email, X-User-Id), and X-Chain-Id. */
export function identityHeaders(st: RefState): HeaderNames {
  if (last !== undefined && last.model === st.model) return last.names;
  let n = NAMES.get(st.model);
  if (!n) NAMES.set(st.model, (n = resolveNames(st)));
  last = { model: st.model, names: n };
  return n;
}

function resolveNames(st: RefState): HeaderNames {
  const hs = st.model.auth.identity_headers.map((h) => h.toLowerCase());
  const find = (re: RegExp) => {
    const h = hs.find((x) => re.test(x));
    if (!h) throw new Error(`spec/rules/auth.yaml: no identity header matches ${re}`);
    return h;
  };
  const chain = st.model.auth.chain_header;
  const chainLower = chain.toLowerCase();
  const patterns = new Set<string>();
  for (const op of st.model.operations.values()) {
    for (const p of op.parameters) if (p.in === 'header' && p.name.toLowerCase() === chainLower && p.pattern !== undefined) patterns.add(p.pattern);
  }
  if (patterns.size !== 1) throw new Error(`spec/openapi.yaml: ${chain} needs one schema pattern, found ${patterns.size === 0 ? 'none' : [...patterns].join(', ')}`);
  return { wallet: find(/wallet/), email: find(/email/), id: find(/-id$/), chain, chainLower, chainPattern: new RegExp([...patterns][0]) };
}

/**
 * X-Chain-Id must be present and match its schema pattern (numeric: any numeric chain is accepted). `form` says which token the
 * call carries (the fault chain.optional-token-forms drops the header only on the user-token and
 * identity-provider forms, where section 7 shows no row).
 */
export function requireChain(ctx: Ctx, st: RefState, form: 's2s' | 'user' | 'idp' = 's2s'): void {
  if (st.fault('chain.optional')) return;
  if (form !== 's2s' && st.fault('chain.optional-token-forms')) return;
  const names = identityHeaders(st);
  const chain = header(ctx, names.chainLower);
  if (chain === undefined) throw st.errors.rule('ERR-S2S-CHAIN-ID-MISSING');
  if (!names.chainPattern.test(chain) && !st.fault('chain.any-value')) throw st.errors.invalid(names.chain);
}

function findAnywhere(st: RefState, f: (c: Company) => User | undefined): User | undefined {
  for (const c of st.store.companies.values()) {
    const u = f(c);
    if (u) return u;
  }
  return undefined;
}

/** Exactly one identity header: the wallet header matches the EOA only; every lookup is company-scoped. */
export function identify(ctx: Ctx, st: RefState, companyId: string): User {
  const names = identityHeaders(st);
  const wallet = header(ctx, names.wallet);
  const email = header(ctx, names.email);
  const id = header(ctx, names.id);
  const n = (wallet !== undefined ? 1 : 0) + (email !== undefined ? 1 : 0) + (id !== undefined ? 1 : 0);
  if (n === 0) throw st.errors.rule('ERR-S2S-USER-IDENTIFIER-MISSING');
  // The one-write fault: the row is broken on a single non-read operation only.
  const multipleOk = st.fault('identity.allow-multiple') || (st.fault('identity.multiple-on-card-create') && ctx.route.operationId === 'createVirtualCard');
  if (n > 1 && !multipleOk) throw st.errors.rule('ERR-S2S-USER-IDENTIFIER-MULTIPLE');
  // The writes-only faults: user-scoped operations other than reads (or only the card actions) resolve the
  // user without the company.
  const cross = st.fault('identity.cross-company')
    || (st.fault('identity.cross-company-writes') && ctx.route.auth === 'user' && ctx.method.toUpperCase() !== 'GET')
    || (st.fault('identity.cross-company-card-actions') && CARD_ACTIONS.has(ctx.route.operationId));
  const company = st.store.companies.get(companyId);
  let u: User | undefined;
  if (id !== undefined) {
    u = st.store.users.get(id);
  } else if (email !== undefined) {
    const key = email.toLowerCase();
    u = cross ? findAnywhere(st, (c) => c.usersByEmail.get(key)) : company?.usersByEmail.get(key);
  } else if (wallet !== undefined) {
    const key = wallet.toLowerCase();
    u = cross ? findAnywhere(st, (c) => c.usersByAddress.get(key)) : company?.usersByAddress.get(key);
    if (!u && st.fault('identity.wallet-matches-smart-wallet')) {
      for (const cand of st.store.users.values()) {
        if (cand.company_id === companyId && cand.wallets.some((w) => w.wallet_address.toLowerCase() === key)) u = cand;
      }
    }
  }
  if (!u || (u.company_id !== companyId && !cross)) throw st.errors.rule('ERR-S2S-USER-NOT-FOUND');
  return u;
}
