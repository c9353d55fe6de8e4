// The reference bank: state, clock, secrets and the section 5 authentication pipeline shared by
// all handlers. Handlers (api.ts, control.ts, pci.ts) are thin functions over this object.

import { randomBytes } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { ErrorFactory, type ApiError } from './errors.ts';
import { faultChecker, type FaultPoint } from './faults.ts';
import { BEARER_RE, decodeHeader, signHs256, verifyHs256 } from './jwt.ts';
import type { ReferenceModel } from './model.ts';
import type { ErrorRuleId, LimitRuleId } from '../model/types.ts';
import { FixedWindow } from './ratelimit.ts';
import { Store, type Client, type Company, type User } from './store.ts';
import { header, type Caller, type Ctx } from './http.ts';
import type { RateLimitOptions } from './types.ts';
import { WebhookEmitter } from './webhooks.ts';

/** Validity of user tokens: the spec does not show it (section 5); the reference picks 1 hour. */
export const USER_TOKEN_VALIDITY_SECONDS = 3600;
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { perIp: 300, perClient: 120, windowMs: 10_000 };
const TOKEN_CACHE_MAX = 10_000;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const NUMERIC = /^[0-9]+$/;

interface VerifiedToken {
  kind: 's2s' | 'user';
  payload: Record<string, unknown>;
}

export interface BankOptions {
  model: ReferenceModel;
  faults?: ReadonlySet<string>;
  rateLimit?: RateLimitOptions;
  settleMs?: number;
}

export class Bank {
  readonly store = new Store();
  readonly errors: ErrorFactory;
  readonly model: ReferenceModel;
  readonly fault: (name: FaultPoint) => boolean;
  readonly webhooks = new WebhookEmitter();
  readonly s2sSecret = randomBytes(32).toString('base64url');
  readonly userSecret = randomBytes(32).toString('base64url');
  private readonly s2sKey = Buffer.from(this.s2sSecret);
  private readonly userKey = Buffer.from(this.userSecret);
  readonly s2sValiditySeconds: number;
  readonly threeDsWindowSeconds: number;
  readonly settleMs: number;
  issuer = 'http://127.0.0.1';
  /** Server clock = real time + offset (control POST /clock/advance). */
  clockOffsetMs = 0;
  private readonly ipLimiter: FixedWindow;
  private readonly clientLimiter: FixedWindow;
  private readonly tokenCache = new Map<string, VerifiedToken>();
  private readonly jwks = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
  readonly timers = new Set<NodeJS.Timeout>();

  constructor(opts: BankOptions) {
    this.model = opts.model;
    this.errors = new ErrorFactory(opts.model);
    this.fault = faultChecker(opts.faults);
    const rl = opts.rateLimit ?? DEFAULT_RATE_LIMIT;
    this.ipLimiter = new FixedWindow(rl.perIp, rl.windowMs);
    this.clientLimiter = new FixedWindow(rl.perClient, rl.windowMs);
    this.s2sValiditySeconds = limitValue(opts.model, 'LIMIT-S2S-TOKEN-VALIDITY');
    this.threeDsWindowSeconds = limitValue(opts.model, 'LIMIT-3DS-WINDOW');
    this.settleMs = opts.settleMs ?? 50;
  }

  nowMs(): number {
    return Date.now() + this.clockOffsetMs;
  }
  nowSec(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  // ------------------------------------------------------------------ rate limiting (section 8)

  /** Throws the 429 row when `key` (an IP or a client_id) is over its window. */
  rateLimit(kind: 'ip' | 'client', key: string): void {
    if (this.fault('ratelimit.disabled')) return;
    const retry = (kind === 'ip' ? this.ipLimiter : this.clientLimiter).hit(key);
    if (retry > 0) {
      throw this.errors.rule('ERR-RATE-LIMITED', [], this.fault('ratelimit.no-retry-after') ? undefined : { 'retry-after': String(retry) });
    }
  }

  // ------------------------------------------------------------------ token issuance

  issueS2sToken(client: Client): { access_token: string; token_type?: string; expires_at: number } {
    const iat = this.nowSec();
    const exp = iat + (this.fault('token.wrong-validity') ? 3600 : this.s2sValiditySeconds);
    const access_token = signHs256(
      { iss: this.issuer, sub: client.client_id, azp: client.client_id, company_id: client.company_id, scope: 'partner:full', iat, exp },
      this.s2sKey,
    );
    return this.fault('token.missing-token-type') ? { access_token, expires_at: exp } : { access_token, token_type: 'Bearer', expires_at: exp };
  }

  /** User token: HS256 under the user-token secret (that secret, not a claim, tells the two kinds apart). */
  issueUserToken(u: User): { access_token: string; expires_at: number } {
    const iat = this.nowSec();
    const exp = iat + USER_TOKEN_VALIDITY_SECONDS;
    const access_token = signHs256(
      { user_id: u.user_id, email: u.email, user_address: u.user_address, company_id: u.company_id, iat, exp },
      this.userKey,
    );
    return { access_token, expires_at: exp };
  }

  // ------------------------------------------------------------------ authentication (section 5, 7)

  /**
   * Runs the route's authentication; sets ctx.caller (and ctx.user on user calls). Returns a promise
   * only for the identity-provider forms (JWKS); every other path is synchronous.
   */
  authenticate(ctx: Ctx): Promise<void> | undefined {
    switch (ctx.route.auth) {
      case 'none':
        return undefined;
      case 's2s':
        ctx.caller = this.s2sOnly(ctx);
        return undefined;
      case 's2s-chain':
        ctx.caller = this.s2sOnly(ctx);
        this.requireChain(ctx);
        return undefined;
      case 'user':
        this.userCall(ctx);
        return undefined;
      case 'idp':
        return this.idpCaller(ctx).then((c) => {
          ctx.caller = c;
        });
      case 'authorize': {
        if (this.isIdpForm(ctx)) {
          return this.idpCaller(ctx).then((c) => {
            ctx.caller = c;
          });
        }
        ctx.caller = this.s2sOnly(ctx);
        this.requireChain(ctx);
        ctx.user = this.identify(ctx, ctx.caller.company_id);
        return undefined;
      }
    }
  }

  /** Identity-provider form when an Identity header is sent or the bearer token is not HS256. */
  private isIdpForm(ctx: Ctx): boolean {
    if (header(ctx, 'identity') !== undefined) return true;
    const m = BEARER_RE.exec(header(ctx, 'authorization') ?? '');
    if (!m) return false;
    const alg = decodeHeader(m[1])?.alg;
    return alg !== undefined && alg !== 'HS256';
  }

  private bearer(ctx: Ctx): string {
    const auth = header(ctx, 'authorization');
    if (auth === undefined) throw this.errors.rule('ERR-S2S-AUTH-HEADER-MISSING');
    const m = BEARER_RE.exec(auth);
    if (!m) throw this.errors.rule('ERR-S2S-BEARER-FORMAT');
    return m[1];
  }

  /** Signature check against both secrets; successful results are cached by token string. */
  private verify(token: string): VerifiedToken {
    const hit = this.tokenCache.get(token);
    if (hit) return hit;
    const skip = this.fault('s2s.skip-signature');
    let v: VerifiedToken | undefined;
    const s2s = verifyHs256(token, this.s2sKey);
    if (s2s) v = { kind: 's2s', payload: s2s };
    else {
      const user = verifyHs256(token, this.userKey);
      if (user) v = { kind: 'user', payload: user };
      else if (skip) {
        const p = verifyHs256(token, this.s2sKey, true);
        if (p) v = { kind: 'user_id' in p ? 'user' : 's2s', payload: p };
      }
    }
    if (!v) throw this.errors.rule('ERR-S2S-SIGNATURE-INVALID');
    if (this.tokenCache.size >= TOKEN_CACHE_MAX) this.tokenCache.delete(this.tokenCache.keys().next().value as string);
    this.tokenCache.set(token, v);
    return v;
  }

  private expired(payload: Record<string, unknown>): boolean {
    if (this.fault('s2s.skip-expiry')) return false;
    const exp = payload.exp;
    return typeof exp !== 'number' || exp <= this.nowSec();
  }

  /** S2S token rows in the section 7 order; a user token is not an S2S token (signature row). */
  private s2sOnly(ctx: Ctx): Caller {
    const v = this.verify(this.bearer(ctx));
    if (v.kind !== 's2s') throw this.errors.rule('ERR-S2S-SIGNATURE-INVALID');
    return this.s2sClaims(v.payload);
  }

  private s2sClaims(p: Record<string, unknown>): Caller {
    if (this.expired(p)) {
      const e = this.errors.rule('ERR-S2S-TOKEN-EXPIRED');
      if (this.fault('s2s.expired-as-400')) throw this.errors.invalid('authorization');
      throw e;
    }
    if (typeof p.azp !== 'string' || p.azp === '') throw this.errors.rule('ERR-S2S-AZP-MISSING');
    if (typeof p.company_id !== 'string' || p.company_id === '') throw this.errors.rule('ERR-S2S-COMPANY-ID-MISSING');
    return { kind: 's2s', company_id: p.company_id, client_id: p.azp };
  }

  /** A user call: user token + X-Chain-Id, or S2S + X-Chain-Id + exactly one identity header. */
  private userCall(ctx: Ctx): void {
    const v = this.verify(this.bearer(ctx));
    if (v.kind === 's2s') {
      ctx.caller = this.s2sClaims(v.payload);
      this.requireChain(ctx);
      ctx.user = this.identify(ctx, ctx.caller.company_id);
      return;
    }
    const p = v.payload;
    if (this.expired(p)) throw this.errors.rule('ERR-USER-TOKEN-EXPIRED');
    if (!this.fault('user-token.skip-claims')) {
      if (typeof p.user_id !== 'string' || p.user_id === '') throw this.errors.rule('ERR-USER-TOKEN-USER-ID-MISSING');
      if (typeof p.email !== 'string' || p.email === '') throw this.errors.rule('ERR-USER-TOKEN-EMAIL-MISSING');
      if (typeof p.user_address !== 'string' || p.user_address === '') throw this.errors.rule('ERR-USER-TOKEN-ADDRESS-MISSING');
    }
    this.requireChain(ctx);
    const u = typeof p.user_id === 'string' ? this.store.users.get(p.user_id) : undefined;
    if (!u || (u.company_id !== p.company_id && !this.fault('identity.cross-company'))) throw this.errors.rule('ERR-S2S-USER-NOT-FOUND');
    ctx.caller = { kind: 'user', company_id: u.company_id };
    ctx.user = u;
  }

  requireChain(ctx: Ctx): void {
    if (this.fault('chain.optional')) return;
    const chain = header(ctx, 'x-chain-id');
    if (chain === undefined) throw this.errors.rule('ERR-S2S-CHAIN-ID-MISSING');
    if (!NUMERIC.test(chain)) throw this.errors.invalid('X-Chain-Id');
  }

  /** Exactly one of X-User-Wallet (EOA only), X-User-Email, X-User-Id; scoped to the company. */
  identify(ctx: Ctx, companyId: string): User {
    const wallet = header(ctx, 'x-user-wallet');
    const email = header(ctx, 'x-user-email');
    const id = header(ctx, 'x-user-id');
    const n = (wallet !== undefined ? 1 : 0) + (email !== undefined ? 1 : 0) + (id !== undefined ? 1 : 0);
    if (n === 0) throw this.errors.rule('ERR-S2S-USER-IDENTIFIER-MISSING');
    if (n > 1 && !this.fault('identity.allow-multiple')) throw this.errors.rule('ERR-S2S-USER-IDENTIFIER-MULTIPLE');
    const cross = this.fault('identity.cross-company');
    let u: User | undefined;
    if (id !== undefined) {
      u = this.store.users.get(id);
    } else if (email !== undefined) {
      u = cross ? this.findAnywhere((c) => c.usersByEmail.get(email.toLowerCase())) : this.store.companies.get(companyId)?.usersByEmail.get(email.toLowerCase());
    } else if (wallet !== undefined) {
      const key = wallet.toLowerCase();
      u = cross ? this.findAnywhere((c) => c.usersByAddress.get(key)) : this.store.companies.get(companyId)?.usersByAddress.get(key);
      if (!u && this.fault('identity.wallet-matches-smart-wallet')) {
        for (const cand of this.store.users.values()) {
          if (cand.company_id === companyId && cand.wallets.some((w) => w.wallet_address.toLowerCase() === key)) u = cand;
        }
      }
    }
    if (!u || (u.company_id !== companyId && !cross)) throw this.errors.rule('ERR-S2S-USER-NOT-FOUND');
    return u;
  }

  private findAnywhere(f: (c: Company) => User | undefined): User | undefined {
    for (const c of this.store.companies.values()) {
      const u = f(c);
      if (u) return u;
    }
    return undefined;
  }

  // ------------------------------------------------------------------ identity provider (section 5)

  private jwksFor(url: string): ReturnType<typeof createRemoteJWKSet> {
    let j = this.jwks.get(url);
    if (!j) {
      j = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 0 });
      this.jwks.set(url, j);
    }
    return j;
  }

  forgetJwks(url: string): void {
    this.jwks.delete(url);
  }

  /**
   * Identity-provider rows in order: Authorization missing, Identity missing, app registered (aud),
   * access token signature, access expired, id token signature, id expired, linked_accounts missing,
   * email or smart_wallet absent; then X-Chain-Id.
   */
  private async idpCaller(ctx: Ctx): Promise<Caller> {
    const auth = header(ctx, 'authorization');
    if (auth === undefined) throw this.errors.rule('ERR-IDP-AUTH-HEADER-MISSING');
    const ident = header(ctx, 'identity');
    if (ident === undefined) throw this.errors.rule('ERR-IDP-IDENTITY-HEADER-MISSING');
    const am = BEARER_RE.exec(auth);
    const im = BEARER_RE.exec(ident);
    if (!am || !im) throw this.errors.rule('ERR-S2S-BEARER-FORMAT', [am ? 'Identity' : 'Authorization']);
    let aud: unknown;
    try {
      aud = decodeJwt(am[1]).aud;
    } catch {
      throw this.errors.rule('ERR-IDP-ACCESS-TOKEN-SIGNATURE');
    }
    const auds = Array.isArray(aud) ? aud : [aud];
    const app = auds.map((a) => (typeof a === 'string' ? this.store.idpApps.get(a) : undefined)).find((a) => a !== undefined);
    if (!app) throw this.errors.rule('ERR-IDP-APP-NOT-REGISTERED');
    const jwks = this.jwksFor(app.jwks_url);
    const currentDate = new Date(this.nowMs());
    const access = await this.verifyProviderToken(am[1], jwks, currentDate, 'ERR-IDP-ACCESS-TOKEN-SIGNATURE', 'ERR-IDP-ACCESS-TOKEN-EXPIRED');
    const id = await this.verifyProviderToken(im[1], jwks, currentDate, 'ERR-IDP-ID-TOKEN-SIGNATURE', 'ERR-IDP-ID-TOKEN-EXPIRED');
    const linked = id.linked_accounts;
    if (!Array.isArray(linked)) throw this.errors.rule('ERR-IDP-LINKED-ACCOUNTS-MISSING');
    const entry = (type: string) =>
      linked.find((a): a is { address: string } => !!a && typeof a === 'object' && (a as any).type === type && typeof (a as any).address === 'string' && (a as any).address !== '');
    const email = entry('email');
    const wallet = entry('smart_wallet');
    if (!email || !wallet) throw this.errors.rule('ERR-IDP-IDENTIFIERS-INCOMPLETE');
    this.requireChain(ctx);
    return {
      kind: 'idp',
      company_id: app.company_id,
      idp: { sub: typeof access.sub === 'string' ? access.sub : '', email: email.address, wallet: wallet.address, app_id: app.app_id },
    };
  }

  private async verifyProviderToken(
    token: string,
    jwks: ReturnType<typeof createRemoteJWKSet>,
    currentDate: Date,
    signatureRow: ErrorRuleId,
    expiredRow: ErrorRuleId,
  ): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, jwks, { currentDate });
      return payload;
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw this.errors.rule(expiredRow);
      throw this.errors.rule(signatureRow);
    }
  }

  /** The user a provider identity maps to in its company: by wallet (user_address), then by email. */
  idpUser(caller: Caller): User | undefined {
    if (!caller.idp) return undefined;
    const c = this.store.companies.get(caller.company_id);
    return c?.usersByAddress.get(caller.idp.wallet.toLowerCase()) ?? c?.usersByEmail.get(caller.idp.email.toLowerCase());
  }

  // ------------------------------------------------------------------ shared validation

  isEvmAddress(s: string): boolean {
    return EVM_ADDRESS.test(s);
  }

  /**
   * A preferred field and its deprecated alias (section 4 rule 4): either may be sent; both must
   * carry the same value. Returns the value (undefined when neither is present).
   */
  aliasPair(body: Record<string, unknown>, preferred: string, deprecated: string, caseInsensitive = false): unknown {
    const a = body[preferred];
    const b = body[deprecated];
    if (a !== undefined && b !== undefined && !this.fault('alias.accept-mismatch')) {
      const same = caseInsensitive && typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;
      if (!same) throw this.errors.rule('ERR-ALIAS-MISMATCH', [preferred, deprecated]);
    }
    return a !== undefined ? a : b;
  }

  /** Sets the preferred name and its deprecated alias to the same value (section 9 rule 3). */
  alias(obj: Record<string, unknown>, preferred: string, deprecated: string, value: unknown, webhook = false): void {
    obj[preferred] = value;
    if (this.fault('alias.drop-deprecated') || (webhook && this.fault('webhooks.drop-aliases'))) return;
    obj[deprecated] = this.fault('alias.different-values') && typeof value === 'string' ? `${value}-stale` : value;
  }

  schedule(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref?.();
    this.timers.add(t);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

function limitValue(model: ReferenceModel, id: LimitRuleId): number {
  const r = model.rule(id) as { value?: number };
  if (typeof r.value !== 'number') throw new Error(`model limit ${id} has no value`);
  return r.value;
}

export type { ApiError };
