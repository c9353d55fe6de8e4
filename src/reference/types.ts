import type { SecureVersion } from 'node:tls';
import type { ErrorRuleId } from '../model/types.ts';
import type { TargetProfile } from '../profile/types.ts';

/** The profile name the reference publishes unless told another: results.json records it as target.name (history tells reference runs by it). */
export const REFERENCE_TARGET_NAME = 'reference';

/** A response about to be sent; a transform may rewrite any part of it. */
export interface OutgoingResponse {
  status: number;
  headers: Record<string, string>;
  /** Serialized body (JSON text for API responses; empty string for 204). */
  body: string;
  /**
   * The model rule (spec/rules/errors.yaml id) this error response renders, when it renders one: lets a
   * mutant select an error by rule (onRule), never by its message text. Not sent on the wire.
   */
  ruleId?: ErrorRuleId;
}

export interface TransformRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** operationId of the matched route (control routes: `control:<name>`), undefined when no route matched. */
  operationId?: string;
  headers: Record<string, string | string[] | undefined>;
  /** Which listener served it. */
  server: 'api' | 'pci';
  /** The section 7 category of a status in the model this reference answers from (model.categoryFor). */
  categoryFor(status: number): string | null;
}

/** Mutant-bank hook: rewrite a response before it is sent. Return a new response or mutate in place. */
export type ResponseTransform = (req: TransformRequest, res: OutgoingResponse) => OutgoingResponse | void | Promise<OutgoingResponse | void>;

export interface RateLimitOptions {
  /** Token-endpoint requests allowed per IP per window. */
  perIp: number;
  /** Token-endpoint requests allowed per client_id per window. */
  perClient: number;
  windowMs: number;
}

export interface ReferenceOptions {
  host?: string;
  port?: number;
  pciPort?: number;
  /** Serve the test-control API under {base_url}/__control (default true). */
  control?: boolean;
  rateLimit?: RateLimitOptions;
  /**
   * Rate-limit window in ms, overriding only the window of `rateLimit` (or of the defaults): a short
   * window lets a run that floods the token endpoint recover in milliseconds (selftest).
   */
  rateLimitWindowMs?: number;
  /** Mutant-bank fault points to switch on (see FAULT_POINTS). */
  faults?: Set<string>;
  transform?: ResponseTransform;
  /** Request body limit in bytes (default 64 KiB). */
  bodyLimitBytes?: number;
  /** Added delay before every response (ms). */
  latencyMs?: number;
  /** Delay only every Nth response of each listener (default 1: every response). */
  latencyEvery?: number;
  /** Delay before a card transfer settles on its own (ms, default 50). */
  settleMs?: number;
  /** S2S token validity (exp and expires_at) in seconds; default the model's 48 h. The client audit scales it. */
  s2sValiditySeconds?: number;
  /** Profile name (default "reference"). */
  name?: string;
  /**
   * How the card-tokenization environment's operations whose authentication the spec does not show
   * (x-auth-unspecified) are protected: unset, none (as the spec shows nothing); s2s, the section 5
   * S2S Bearer token; user, a user token or S2S + identity header (section 5 user calls); headers, a
   * vendor key in X-Api-Key. The published profile's operation_auth says so (benign.pci.requires-s2s).
   */
  pciAuth?: 's2s' | 'user' | 'headers';
  /** Serve both listeners over HTTPS (serve --tls, the selftest's TLS variants); default plain HTTP. */
  tls?: ReferenceTls;
}

/** The TLS identity and protocol settings of an HTTPS reference. */
export interface ReferenceTls {
  /** Server private key and certificate (PEM), e.g. from generateTlsIdentity. */
  key: string;
  cert: string;
  /** The CA file the profile names as ca_file (absolute path), written by the caller. */
  caFile?: string;
  /** Protocol bounds and cipher list: Node's defaults (TLS 1.2 to 1.3) unless a TLS variant lowers them. */
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
  ciphers?: string;
}

export interface ReferenceServer {
  profile: TargetProfile;
  close(): Promise<void>;
}
