// A check is data plus a small function: an id, the rule ids it covers, the spec section, and an
// async body. The runner knows nothing about specific rules; it only calls `run(ctx)`.

import type { HttpClient } from '../client/types.ts';
import type { ControlAdapter } from '../control/types.ts';
import type { ControlOperationId, Model, RuleId } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';

/** Things a check may need from the target; missing ones make the runner skip it with a reason. */
export type Need =
  | 'control' // any test-control adapter (prefer the per-operation form below)
  | `control:${ControlOperationId}` // one control operation of spec/control.yaml by operationId, e.g. control:advanceClock
  | `fixture:${FixtureNeed}` // an existing user the profile names (profile.fixtures.<name>, sepa.<Status>)
  // Either alternative meets it: the control operation that creates the state, or a fixture user in it.
  | `control:${ControlOperationId}|fixture:${FixtureNeed}`
  // Either control operation provokes the event (e.g. create3dsChallenge, or triggerWebhook for its webhook).
  | `control:${ControlOperationId}|control:${ControlOperationId}`
  // The card-tokenization environment (to create what emits it) or a control operation emitting it.
  | `pci|control:${ControlOperationId}`
  | 'pci' // card-tokenization environment
  | 's2s_signing_secret'
  | 'user_token_signing_secret'
  | 'idp' // profile.idp.enabled, and the test identity provider registered (control setIdpConfig, or out of band)
  | 'idp_tokens' // provider tokens the target accepts: the engine's trusted provider, or real ones (profile.idp.tokens)
  | 'webhooks' // engine's webhook receiver: registered through control setWebhookBaseUrl, or external (profile.webhooks)
  | 'special_client:no_secret'
  | 'special_client:company_type_restricted'
  | 'two_clients'
  | `operation:${string}`; // a path for an operation the spec does not show

/** profile.fixtures entries a check can need (sepa.<Status> names a status of section 3). */
export type FixtureNeed = 'three_ds_pending' | 'withdrawal_pending' | `sepa.${string}`;

export interface Check {
  /** Stable id, e.g. `errors.token.client-id-missing`. */
  id: string;
  title: string;
  /** Area (one generated file per area): auth, errors, identity, users, aliases, states, cards, transfers, bank, webhooks, versioning, schema, limits. */
  area: string;
  /** Spec section the check is traced to. */
  section: string;
  /** Rule ids covered (typed: a rule id spec/rules does not have fails tsc). */
  rules: RuleId[];
  /** True when the check creates nothing and moves no money (kept by --safe). */
  safe: boolean;
  /** True when the check must not run concurrently with others (e.g. it moves the server clock, or floods the rate limiter). */
  exclusive?: boolean;
  /**
   * Requests on the check's longest chain of requests sent one after another, as recorded (suites/costs.ts):
   * the runner starts the longest checks first, so across a WAN the run ends with its longest chain, not
   * after it. Scheduling only: no verdict, seed or result order depends on it. Absent: 1.
   */
  cost?: number;
  needs?: Need[];
  run(ctx: CheckContext): Promise<void>;
}

// The HTTP types live with the client (src/client/types.ts); re-exported for the checks.
export type { HttpClient, HttpRequest, HttpResponse } from '../client/types.ts';

export interface CheckContext {
  model: Model;
  profile: ResolvedProfile;
  http: HttpClient;
  /** Seed for this check's fast-check properties: same seed, same run. */
  seed: number;
  /** numRuns for fast-check properties (scaled by --runs). */
  numRuns: number;
  /**
   * Runs in flight at once for a property declared independent (src/checks/property.ts; default
   * PROPERTY_BATCH). The run's choice, not the check's: the selftest keeps it small (a burst of one run
   * delays the runs sharing its thread), a run across a WAN takes the default.
   */
  propertyBatch?: number;
  /** Abort when the run is cancelled or the check's time budget is over. */
  signal: AbortSignal;
  /** Skip the check with a reason (throws). */
  skip(reason: string): never;
  /** Shared per-run services the engine starts: test identity provider and webhook receiver. */
  services: RunServices;
  log(message: string): void;
  /**
   * Records something the spec recommends but does not require (a Retry-After on 429, TLS on an http
   * target). The check goes on; the warning is reported apart and changes the exit code only with --strict.
   */
  warn(message: string): void;
  /**
   * Records an assertion the check could not judge because the run lacks a service (no webhook
   * receiver, no control operation, an identity provider the target does not trust, a profile field):
   * `what` names the assertion, `missing` the service. The check goes on and may still pass on what it
   * could judge; the result lists the assertion as "could not judge", never as passed, and the
   * selftest counts a fault it alone would see as hidden by `missing`.
   */
  couldNotJudge(what: string, missing: string): void;
  /**
   * The run keeps only safe checks (--safe): a check sends no write at all, not even one a conforming
   * target must refuse (a faulty target could act on it). Absent: false.
   */
  safeMode?: boolean;
}

export interface RunServices {
  /** The test-control adapter (our control API, an adapter file or module); absent when there is none. */
  control?: ControlAdapter;
  /** Test identity provider (keys + JWKS endpoint on loopback). */
  idp?: TestIdentityProvider;
  /** Webhook receiver (loopback), registered with the target through the control API. */
  webhooks?: WebhookReceiver;
}

export interface IdpTokenOptions {
  sub?: string;
  aud?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  email?: string;
  /** The linked smart wallet (linked_accounts entry of type smart_wallet). */
  wallet?: string;
  /** The linked EOA (linked_accounts entry of type wallet), as a real provider links the embedded wallet beside the smart wallet. */
  eoa?: string;
  /** Omit the linked_accounts claim entirely. */
  omitLinkedAccounts?: boolean;
  /** Omit the email entry / every wallet entry (EOA and smart wallet) from linked_accounts. */
  omitEmail?: boolean;
  omitWallet?: boolean;
  /** Sign with a key that is not in the JWKS. */
  badSignature?: boolean;
}

export interface TestIdentityProvider {
  jwksUrl: string;
  issuer: string;
  /** Provider app id that the target is configured with for profile.clients[0]'s company. */
  appId: string;
  accessToken(opts?: IdpTokenOptions): Promise<string>;
  identityToken(opts?: IdpTokenOptions): Promise<string>;
}

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON payload (unknown: section 6 shows only some payloads; expectWebhookSchema types none). */
  body: unknown;
  receivedAt: number;
}

export interface WebhookReceiver {
  baseUrl: string;
  /** Waits for a webhook on `path` matching `predicate`, up to `timeoutMs` or until `signal` aborts. Resolves undefined on timeout or abort. */
  waitFor(path: string, predicate: (body: unknown) => boolean, timeoutMs: number, signal?: AbortSignal): Promise<ReceivedWebhook | undefined>;
  /** All webhooks received so far. */
  all(): ReceivedWebhook[];
  /**
   * Deliveries made with a method other than POST (answered 405, kept apart from `all`), so a check
   * can judge the delivery method (section 6: "delivers webhooks by POST"). Optional for receivers
   * that cannot see them.
   */
  refused?(): RefusedDelivery[];
}

/** A request to the webhook receiver with a method other than POST. */
export interface RefusedDelivery {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The body as text (first 64 KiB), so a check can tell its own deliveries from strangers'. */
  text: string;
  receivedAt: number;
}
