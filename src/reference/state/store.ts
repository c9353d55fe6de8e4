// In-memory state of the reference bank. Every public lookup goes through a company-scoped index;
// the only global maps are keyed by random UUIDs and are re-checked against the caller's company
// (and user) before use.

import { randomBytes, randomUUID } from 'node:crypto';
import type { SepaAccountState, StateName } from '../../model/types.ts';

/** USDC on Base Sepolia, the sandbox chain (token addresses are not shown by the spec: a reference choice). */
export const USDC_ADDRESS = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';

export interface Company {
  id: string;
  name: string;
  /** 'Partner' may use client credentials; 'Restricted' provokes the company-type row. */
  type: 'Partner' | 'Restricted';
  usersByEmail: Map<string, User>;
  usersByAddress: Map<string, User>;
}

export interface Client {
  client_id: string;
  /** null: "no secret configured". */
  secret: string | null;
  company_id: string;
}

export interface Balance {
  token_symbol: string;
  token_address: string;
  balance: string;
}

export interface Wallet {
  id: string;
  wallet_address: string;
  chain_type: 'ethereum' | 'xrpl';
  /** 'Primary' for the Primary Smart Wallet; null once removed through the control API. */
  role: 'Primary' | null;
  balances: Balance[];
  created_at: number;
}

export interface Card {
  id: string;
  status: 'Active' | 'Inactive' | 'Blocked' | 'Closed';
  card_data: { card_name: string; format: 'virtual' | 'plastic' };
  created_at: number;
  /** Set on close; only the `cards.closed-unlisted` fault reads it (the list hides cards once closed). */
  closed?: true;
  /** Under `cards.effects-deferred`: the status the list still shows until `untilMs` (wall time). */
  listed?: { status: Card['status']; untilMs: number };
}

export interface PaymentDetails {
  id: string;
  type: 'Card' | 'Sepa' | 'Crypto';
  currencies: string[];
  card?: { last4: string; card_token: string };
  sepa?: { iban: string; bic: string };
  recipient_address?: string;
}

export interface Recipient {
  id: string;
  type: string;
  is_business: boolean;
  personal_info: { first_name: string; last_name: string };
  payment_details: PaymentDetails[];
  created_at: number;
}

export interface Estimation {
  id: string;
  user_id: string;
  recipient_id: string;
  payment_details_id: string;
  amount: string;
  currency: string;
  rates: { token_symbol: string; rate: string }[];
  created_at: number;
  used: boolean;
}

export interface Activity {
  id: string;
  user_id: string;
  type: 'CardTransaction' | 'BankTransfer' | 'Crypto';
  direction: 'Inbound' | 'Outbound';
  status: 'Pending' | 'Completed';
  amount: string;
  currency: string;
  payment_details_id?: string;
  recipient_id?: string;
  estimation_id?: string;
  created_at: number;
  completed_at?: number;
}

export interface Challenge {
  transaction_id: string;
  user_id: string;
  amount: string;
  currency: string;
  created_at: number;
  expires_at: number;
  status: 'Pending' | 'Approved' | 'Declined';
}

export interface WithdrawalRequest {
  id: string;
  user_id: string;
  /** The machine's pending status (model: WithdrawalRequest pending_status). */
  status: StateName;
  call_data: string;
  valid_after: number;
  wallet_address: string;
  destination_address: string;
  token_symbol: string;
  amount: string;
  created_at: number;
}

export interface User {
  user_id: string;
  company_id: string;
  email: string;
  country: string;
  /** EOA address given at registration (or the wallet of the identity tokens for retail users). */
  user_address: string;
  wallets: Wallet[];
  sepa: { status: SepaAccountState; details_id?: string; challenge?: string; iban?: string; bic?: string };
  visaVirtualCard: string;
  /** account_type -> details_id for Ach, FasterPayment, Spei. */
  bankDetails: Map<string, string>;
  cards: Card[];
  recipients: Recipient[];
  activities: Activity[];
  withdrawals: WithdrawalRequest[];
  challenges: Challenge[];
  idp_sub?: string;
  created_at: number;
}

export interface IdpApp {
  app_id: string;
  company_id: string;
  jwks_url: string;
}

export function randomAddress(): string {
  return '0x' + randomBytes(20).toString('hex');
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export function randomXrplAddress(): string {
  const bytes = randomBytes(33);
  let s = 'r';
  for (let i = 0; i < 33; i++) s += B58[bytes[i] % 58];
  return s;
}

export function newWallet(now: number, role: 'Primary' | null = 'Primary'): Wallet {
  return {
    id: randomUUID(),
    wallet_address: randomAddress(),
    chain_type: 'ethereum',
    role,
    balances: [{ token_symbol: 'USDC', token_address: USDC_ADDRESS, balance: '1000.00' }],
    created_at: now,
  };
}

export class Store {
  readonly companies = new Map<string, Company>();
  readonly clients = new Map<string, Client>();
  readonly users = new Map<string, User>();
  readonly challenges = new Map<string, Challenge>();
  readonly cardTokens = new Map<string, { card_token: string; last4: string; holder_name?: string; created_at: number }>();
  readonly estimations = new Map<string, Estimation>();
  readonly activities = new Map<string, Activity>();
  /** Provider app id -> trusted provider (control PUT /idp). */
  readonly idpApps = new Map<string, IdpApp>();
  /** Provider app ids once configured and cleared (control POST /idp/clear): known, configured for no company. */
  readonly clearedIdpApps = new Set<string>();
  /** SMS confirmation sessions (section 4 Confirmation; paths not shown) and the tokens verified from them. */
  readonly smsSessions = new Map<string, { session_id: string; user_id: string; action_type: string; used: boolean }>();
  readonly actionTokens = new Map<string, { user_id: string; action_type: string }>();

  company(id: string): Company {
    let c = this.companies.get(id);
    if (!c) {
      // Forged tokens may name a company that was never seeded; it is simply an empty namespace.
      c = { id, name: id, type: 'Partner', usersByEmail: new Map(), usersByAddress: new Map() };
      this.companies.set(id, c);
    }
    return c;
  }

  addCompany(name: string, type: Company['type']): Company {
    const c: Company = { id: randomUUID(), name, type, usersByEmail: new Map(), usersByAddress: new Map() };
    this.companies.set(c.id, c);
    return c;
  }

  addClient(company: Company, secret: string | null): Client {
    const cl: Client = { client_id: randomUUID(), secret, company_id: company.id };
    this.clients.set(cl.client_id, cl);
    return cl;
  }

  /** A new user; `status` gives the initial capability statuses (read from the model by the caller). */
  addUser(companyId: string, email: string, country: string, userAddress: string, now: number, status: { sepa: SepaAccountState; visaVirtualCard: string }): User {
    const u: User = {
      user_id: randomUUID(),
      company_id: companyId,
      email,
      country,
      user_address: userAddress,
      wallets: [newWallet(now)],
      sepa: { status: status.sepa },
      visaVirtualCard: status.visaVirtualCard,
      bankDetails: new Map(),
      cards: [],
      recipients: [],
      activities: [],
      withdrawals: [],
      challenges: [],
      created_at: now,
    };
    const c = this.company(companyId);
    this.users.set(u.user_id, u);
    c.usersByEmail.set(email.toLowerCase(), u);
    c.usersByAddress.set(userAddress.toLowerCase(), u);
    return u;
  }

  primaryWallet(u: User): Wallet | undefined {
    return u.wallets.find((w) => w.role === 'Primary');
  }
}
