// Bank accounts and SEPA activation (section 3 SepaAccount machine, section 4 rules 1-2, section 7
// other rules 2-3). Statuses are st.sepa roles read from the model's transitions. Order on init and
// complete: chain validation (chain_id), signed_challenge (complete), wrong path, Primary Smart Wallet,
// then the signature of the challenge init issued (state/signing.ts; the scheme is not shown).

import { randomBytes, randomUUID } from 'node:crypto';
import { ApiError } from '../errors.ts';
import { Fields } from '../fields.ts';
import type { Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import { walletVerify } from '../state/signing.ts';
import type { User } from '../state/store.ts';
import { enumOf, ok, userOf } from './common.ts';

const NUMERIC = /^[0-9]+$/;
/** The account_type value that activates the SepaAccount capability (section 3: "account_type Sepa"). */
const SEPA_ACCOUNT_TYPE = 'Sepa';

function wrongPath(st: RefState) {
  if (st.fault('sepa.wrong-path-500')) return st.errors.internal();
  return st.errors.rule('ERR-SEPA-WRONG-PATH');
}

/** `chain` must be a numeric string; the error names chain_id (section 4 rule 1, section 7 other rule 3). */
function chain(st: RefState, b: Record<string, unknown>): string {
  const field = st.fault('sepa.chain-field-named-chain') ? 'chain' : 'chain_id';
  const v = b.chain;
  if (v === undefined || v === null || v === '') throw st.errors.missing(field);
  if (typeof v !== 'string' || !NUMERIC.test(v)) throw st.errors.rule('ERR-CHAIN-NOT-NUMERIC', [field]);
  return v;
}

export function createBankAccount(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  const type = new Fields(st.errors).oneOf(ctx.body, 'account_type', enumOf(st, 'createBankAccount', 'account_type'));
  if (type !== SEPA_ACCOUNT_TYPE) {
    let id = u.bankDetails.get(type);
    if (!id) {
      id = randomUUID();
      u.bankDetails.set(type, id);
    }
    return ok({ details_id: id });
  }
  const S = st.sepa;
  const s = u.sepa.status;
  if (s === S.notStarted) {
    u.sepa.details_id ??= randomUUID();
    u.sepa.status = S.inProgress;
  } else if (s === S.active && st.fault('sepa.active-refused')) {
    throw wrongPath(st);
  } else if (s === S.active && st.fault('sepa.active-new-details-id')) {
    u.sepa.details_id = randomUUID();
  } else if (s === S.inProgress || s === S.active) {
    u.sepa.details_id ??= randomUUID();
  } else if (st.fault('sepa.allow-wrong-path')) {
    u.sepa.details_id ??= randomUUID();
    u.sepa.status = S.inProgress;
  } else {
    throw wrongPath(st);
  }
  return ok({ details_id: u.sepa.details_id });
}

function walletLinkGuard(st: RefState, u: User) {
  if (u.sepa.status !== st.sepa.verificationRequired && !st.fault('sepa.allow-wrong-path')) throw wrongPath(st);
  const w = st.store.primaryWallet(u);
  if (!w && !st.fault('sepa.no-primary-wallet-check')) throw noPrimaryWallet(st);
  return w ?? u.wallets[0];
}

/** The refusal when the user has no Primary Smart Wallet (section 3 rule 3 shows no status or error). */
function noPrimaryWallet(st: RefState): ApiError {
  if (st.fault('sepa.no-primary-wallet-500')) return st.errors.internal();
  const e = st.errors.notFound('wallet_address');
  return st.fault('sepa.no-primary-wallet-500-mismatch') ? new ApiError(500, e.body) : e;
}

/** The wallet init shows as wallet_address: the Primary, or under `sepa.init-other-wallet` another of the user's wallets. */
function shownWallet(st: RefState, u: User, primary: User['wallets'][number] | undefined) {
  if (!st.fault('sepa.init-other-wallet')) return primary;
  return u.wallets.find((x) => x !== primary) ?? primary;
}

export function initBankAccount(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  chain(st, ctx.body);
  const w = shownWallet(st, u, walletLinkGuard(st, u));
  u.sepa.challenge = `Link wallet ${w?.wallet_address ?? ''} to SEPA account of ${u.user_id}: ${randomBytes(16).toString('hex')}`;
  return ok({ challenge: u.sepa.challenge, wallet_address: w?.wallet_address ?? null });
}

export function completeBankAccount(ctx: Ctx, st: RefState): Reply {
  const u = userOf(ctx);
  chain(st, ctx.body);
  const signed = new Fields(st.errors).string(ctx.body, 'signed_challenge', 4096);
  const w = walletLinkGuard(st, u);
  if (!u.sepa.challenge || !w || !walletVerify(w.wallet_address, u.sepa.challenge, signed)) throw st.errors.invalid('signed_challenge');
  u.sepa.details_id ??= randomUUID();
  u.sepa.status = st.sepa.inProgress;
  u.sepa.challenge = undefined;
  return ok({ details_id: u.sepa.details_id });
}
