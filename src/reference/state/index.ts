// Everything a request handler may read or change, built once per server by the composition root
// (index.ts): the model, the in-memory store, the server clock, the signing secrets, the rate
// limiters, webhook delivery and the fault points the mutant bank switches on. Behaviour lives in
// auth/ and handlers/; this module only holds state.

import type { createRemoteJWKSet } from 'jose';
import type { LimitRuleId, Model } from '../../model/types.ts';
import { Aliases } from '../aliases.ts';
import { ErrorFactory } from '../errors.ts';
import { faultChecker, type FaultPoint } from '../faults.ts';
import type { RateLimitOptions } from '../types.ts';
import { WebhookEmitter } from '../webhooks.ts';
import { Clock } from './clock.ts';
import { TokenRateLimit } from './ratelimit.ts';
import { Secrets } from './secrets.ts';
import { sepaRoles, type SepaRoles } from './sepa.ts';
import { Store } from './store.ts';
import { DEFAULT_RATE_LIMIT } from '../rate-limits.ts';

export { DEFAULT_RATE_LIMIT, EMBEDDED_RUN_RATE_LIMIT } from '../rate-limits.ts';
/** Probe bound the reference publishes (profile.rate_limit.max_probe_requests): 2 x perClient + 1 fits. */
export const REFERENCE_PROBE_BOUND = 600;

export interface StateOptions {
  model: Model;
  faults?: ReadonlySet<string>;
  rateLimit?: RateLimitOptions;
  /** Overrides only the rate-limit window (ms), keeping the limits. */
  rateLimitWindowMs?: number;
  settleMs?: number;
  /** S2S token validity in seconds instead of the model's 48 h (the client audit scales it). */
  s2sValiditySeconds?: number;
}

function limitValue(model: Model, id: LimitRuleId): number {
  const r = model.rule(id);
  if (r.kind !== 'limit' || typeof r.value !== 'number') throw new Error(`spec/rules/limits.yaml: ${id} has no value`);
  return r.value;
}

/** A token whose HS256 signature verified under one of the two secrets (which one decides its kind). */
export interface VerifiedToken {
  kind: 's2s' | 'user';
  payload: Record<string, unknown>;
  /**
   * Whether the claim rows of its kind all pass, once judged (auth/token-steps.ts). They read only the
   * payload, which never changes, and the fault points, fixed for a server's life; expiry is not one of them.
   */
  claimsHold?: boolean;
}

export class RefState {
  readonly model: Model;
  readonly store = new Store();
  readonly clock = new Clock();
  readonly secrets = new Secrets();
  readonly webhooks = new WebhookEmitter();
  readonly errors: ErrorFactory;
  readonly fault: (name: FaultPoint) => boolean;
  /** No fault point is set: every step decides the same way for every method and operation. */
  readonly faultFree: boolean;
  readonly aliases: Aliases;
  readonly rateLimit: TokenRateLimit;
  readonly sepa: SepaRoles;
  /** Section 8 limits, from the model. */
  readonly s2sValiditySeconds: number;
  readonly threeDsWindowSeconds: number;
  readonly withdrawalDelaySeconds: number;
  /** Verified tokens by Authorization header value (bounded; see auth/token-steps.ts). */
  readonly tokenCache = new Map<string, VerifiedToken>();
  /** Identity-provider key sets by JWKS URL (control PUT /idp forgets one). */
  readonly jwks = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
  /** Delay before a card transfer settles on its own (ms). */
  readonly settleMs: number;
  /** `iss` of S2S tokens: the base URL once the listener is up. */
  issuer = 'http://127.0.0.1';

  constructor(o: StateOptions) {
    this.model = o.model;
    this.errors = new ErrorFactory(o.model);
    this.fault = faultChecker(o.faults);
    this.faultFree = !o.faults || o.faults.size === 0;
    this.aliases = new Aliases(o.model, this.errors, this.fault);
    const rl = o.rateLimit ?? DEFAULT_RATE_LIMIT;
    this.rateLimit = new TokenRateLimit({ ...rl, windowMs: o.rateLimitWindowMs ?? rl.windowMs }, () => this.clock.nowMs());
    this.sepa = sepaRoles(o.model);
    this.s2sValiditySeconds = o.s2sValiditySeconds ?? limitValue(o.model, 'LIMIT-S2S-TOKEN-VALIDITY');
    this.threeDsWindowSeconds = limitValue(o.model, 'LIMIT-3DS-WINDOW');
    this.withdrawalDelaySeconds = limitValue(o.model, 'LIMIT-WITHDRAWAL-DELAY');
    this.settleMs = o.settleMs ?? 50;
  }

  /** A new user with the initial capability statuses (section 3: SEPA not started; the card capability active). */
  addUser(companyId: string, email: string, country: string, userAddress: string) {
    return this.store.addUser(companyId, email, country, userAddress, this.clock.nowSec(), { sepa: this.sepa.notStarted, visaVirtualCard: this.sepa.active });
  }

  close(): void {
    this.clock.close();
  }
}
