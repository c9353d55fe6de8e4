// The typed model of the Partner API spec. Everything downstream (reference server, suites,
// load scenarios, reports) reads rules from here; nothing re-states them.

import type { RawOpenApi, RawSchema } from './raw.ts';
import type { SpecFacts } from './facts.ts';
import type { ValidateFunction } from 'ajv';
import type {
  AliasRuleId, ClientRuleId, ControlOperationId, ErrorRuleId, LimitKey, LimitRuleId, MachineName, OperationId, RuleId, SepaAccountState, StateName, StateRuleId,
  UnspecifiedWebhookId, WebhookId,
} from '../generated/ids.ts';

// Identifiers are typed with the unions generated from spec/ (src/generated/ids.ts): a typo in a rule,
// operation, webhook or state name fails `tsc`. A model loaded from another spec directory (`--spec`)
// may carry other values at run time; lookups then fail with a clear error, never silently.
export type {
  AliasRuleId, ClientRuleId, ControlOperationId, ErrorRuleId, LimitKey, LimitRuleId, MachineName, OperationId, RuleId, SepaAccountState, StateName, StateRuleId,
  UnspecifiedWebhookId, WebhookId,
};

/** Spec section, e.g. "7", "3", "4.rule4", "9.6". Free text, always traceable to the spec document. */
export type Section = string;

export type RuleKind = 'error' | 'state' | 'alias' | 'limit' | 'auth' | 'versioning' | 'endpoint' | 'event' | 'general';

export interface RuleBase {
  id: RuleId;
  kind: RuleKind;
  section: Section;
  /** One line, in the spec's own words where possible. */
  summary: string;
  /** operationIds from spec/openapi.yaml the rule applies to. */
  operations: OperationId[];
  /** false when no black-box check can observe the rule; `untestable_reason` says why. */
  testable: boolean;
  untestable_reason?: string;
  /**
   * `no` when a check of this rule cannot be judged again offline from a certificate's transcript
   * (verify --rejudge): its verdict rests on what the transcript does not hold (webhooks the target
   * delivered, the wall clock, the TLS handshake); `rejudge_reason` says why. Absent: offline.
   */
  rejudge?: 'offline' | 'no';
  rejudge_reason?: string;
  /**
   * Set when a testable rule is checked loosely: why a faulty server can still pass its checks
   * (presence only, a reading the spec does not pick, a skip). Absent on a testable rule: checked
   * exactly. `baas-conform rules --audit` (src/checks/spec-audit.ts) counts both.
   */
  loose?: string;
  /** Parts of the rule the spec marks "not shown": recorded, never invented. */
  unspecified?: string[];
  /**
   * Readings the checks apply where a sentence leaves a choice open: the sentence, the reading, and
   * what a check reports as a warning under it (--strict fails it). Read by src/model/readings.ts.
   */
  readings?: Reading[];
  /** Source file (relative to spec/) and JSON pointer, for error messages and reports. */
  source: { file: string; pointer: string };
}

/** How a check reads one spec sentence (spec/rules `readings`). */
export interface Reading {
  /** Unique within its rule, e.g. `non-numeric-value`. */
  id: string;
  /** Section of the sentence, when it is not the rule's own. */
  section?: string;
  /** The spec's own words the reading rests on. */
  sentence: string;
  /** What every answer the check accepts has in common: the readings the spec allows. */
  reading: string;
  /** The accepted answer that may hide a fault: reported as a warning, a failure under --strict. */
  warns?: string;
}

export type Category =
  | 'CategoryValidationFailure'
  | 'CategoryUnauthorized'
  | 'CategoryInternalFailure'
  | 'CategoryTransientFailure';

export interface ErrorRule extends RuleBase {
  id: ErrorRuleId;
  kind: 'error';
  /** Which table of section 7 the row belongs to. */
  table: 'token' | 's2s' | 'idp' | 'user_token' | 'other' | 'rate_limit' | 'validation';
  status: number;
  /** null when the spec does not show it (then any reason is accepted). */
  reason: string | null;
  /** null when the spec does not show it (then any message is accepted). */
  message: string | null;
  /** The category of section 7 for this status; null if the spec has no category for it. */
  category: Category | null;
  cause: string;
  /**
   * error_details entries the spec names: the `details` value that must appear
   * (the key name is only an example in the spec, "e.g. key field", so it is not checked).
   */
  details?: string[];
  /** error_details values that must NOT name the field (e.g. `chain` for the chain_id rule). */
  details_not?: string[];
}

export interface StateTransition {
  from: StateName;
  /** operationId or event name that moves the state. */
  via: string[];
  guard?: string;
  to?: StateName;
  result?: string;
}

export interface StateRule extends RuleBase {
  id: StateRuleId;
  kind: 'state';
  machine: MachineName;
  /** HTTP status for a wrong transition, where the spec gives one. */
  wrong_transition_status?: number;
  transitions?: StateTransition[];
}

/** A section 3 state machine: its name, the state values the spec lists, and named statuses. */
export interface StateMachine {
  name: MachineName;
  section: Section;
  /** State (status) values as the spec lists them; empty when the spec shows none. */
  states: StateName[];
  /** Status of a pending item, where the spec names one (withdrawal requests: `Requested`). */
  pending_status?: StateName;
}

export type AliasDirection = 'request' | 'response' | 'webhook';

export interface AliasRule extends RuleBase {
  id: AliasRuleId;
  kind: 'alias';
  direction: AliasDirection;
  /** Deprecated name. */
  old: string;
  /** Preferred name. */
  new: string;
  /** Webhook path for direction=webhook (section 6). */
  webhook?: string;
}

export interface LimitRule extends RuleBase {
  id: LimitRuleId;
  kind: 'limit';
  /** Numeric value where the spec gives one, in `unit`. */
  value?: number;
  unit?: string;
}

export interface GenericRule extends RuleBase {
  kind: 'auth' | 'versioning' | 'endpoint' | 'event' | 'general';
  /** Structured facts for the rule (e.g. claims list, algorithm). */
  facts?: Record<string, unknown>;
}

export type Rule = ErrorRule | StateRule | AliasRule | LimitRule | GenericRule;

/**
 * A rule the spec gives clients (spec/rules/client.yaml), judged by `baas-conform audit` from the
 * exchanges a client makes. Kept apart from `rules` (server rules): no server check covers them.
 */
export interface ClientRule {
  id: ClientRuleId;
  side: 'client';
  section: Section;
  /** required: a verdict; recommended: a warning (a failure under --strict). */
  level: 'required' | 'recommended';
  /** The spec sentence the rule rests on. */
  quote: string;
  /** A source outside the spec the rule rests on (Retry-After: RFC 9110). */
  cites?: string;
  summary: string;
  operations: OperationId[];
  testable: boolean;
  untestable_reason?: string;
  /** Spec facts the judge needs that no other model file holds (a header name, a field name). */
  facts: Record<string, string>;
  source: { file: string; pointer: string };
}

export interface Operation {
  operationId: OperationId;
  method: string;
  /** Path as the spec shows it; for unspecified paths a placeholder, see `pathUnspecified`. */
  path: string;
  /** 'api' (base_url) or 'pci' (card-tokenization environment). */
  server: 'api' | 'pci';
  pathUnspecified: boolean;
  /** 'none' | 's2s' | 'user' | 'idp' | 's2s-agnostic' ... from x-auth. */
  auth: string[];
  /**
   * true when the spec does not show how the operation authenticates (x-auth-unspecified): `auth` is
   * then a placeholder, and the target profile's `operation_auth` says what to send.
   */
  authUnspecified: boolean;
  /** true when the endpoint needs a user identity (section 5 "most endpoints"). */
  userScoped: boolean;
  /** Header, path and query parameters the spec lists (dereferenced), e.g. X-Chain-Id required on POST /api/v1/user. */
  parameters: { name: string; in: string; required: boolean; /** The schema's pattern, when the spec gives one (X-Chain-Id: digits). */ pattern?: string }[];
  /** true when the spec shows a request body for the operation. */
  hasRequestBody: boolean;
  deprecatedRequestFields: string[];
  requestSchema?: RawSchema;
  /** status code -> JSON schema (dereferenced). */
  responseSchemas: Record<string, object>;
  /** Whether the operation creates state or moves money (excluded by --safe). */
  mutates: boolean;
  movesMoney: boolean;
}

export interface AuthFacts {
  s2s_token: { algorithm: string; validity_seconds: number; scope: string; claims: string[]; token_type: string };
  identity_headers: string[];
  chain_header: string;
  sandbox_chain_id?: string;
  user_agnostic_operations: OperationId[];
}

/** A section 6 webhook: its id (spec/openapi.yaml `webhooks` key) and delivery path, or no path when the spec shows none. */
export interface Webhook {
  id: WebhookId | UnspecifiedWebhookId;
  /** Delivery path relative to {webhook_base_url}; undefined when the spec does not show it (profile `webhook_paths`). */
  path?: string;
  summary: string;
}

export interface Model extends SpecFacts {
  /** The dereferenced OpenAPI document. */
  openapi: RawOpenApi;
  /** The dereferenced control API document. */
  control: RawOpenApi;
  operations: ReadonlyMap<OperationId, Operation>;
  /** The operation `id`; throws naming the id when the spec has none (e.g. a model from another --spec). */
  operation(id: OperationId): Operation;
  /**
   * Fields of the operation's success answer that are checked only when present (spec/openapi.yaml
   * `x-checked-when-present`): a check must not require them. Empty when there are none.
   */
  whenPresent(id: OperationId): readonly string[];
  /** Narrows a string from outside the code (a plan file, a profile, a CLI flag) to an operationId of this model. */
  isOperationId(id: string): id is OperationId;
  /** Narrows a string from outside the code to a rule id of this model. */
  isRuleId(id: string): id is RuleId;
  rules: Rule[];
  rule(id: RuleId): Rule;
  /** Client rules (spec/rules/client.yaml), in file order. */
  clientRules: ClientRule[];
  clientRule(id: ClientRuleId): ClientRule;
  errorRule(id: ErrorRuleId): ErrorRule;
  aliasRule(id: AliasRuleId): AliasRule;
  /** Section 6 webhooks, those with a path (`webhooks`) and those without (`x-unspecified-webhooks`). */
  webhooks: Webhook[];
  /** Delivery path of a section 6 webhook the spec shows (e.g. `user` -> /v2/webhooks/user). */
  webhookPath(id: WebhookId): string;
  categories: { category: Category; status: number }[];
  categoryFor(status: number): Category | null;
  aliases: AliasRule[];
  /** Section 3 state machines (spec/rules/states.yaml). */
  machines: StateMachine[];
  /** The section 3 machine `name`. */
  machine(name: MachineName): StateMachine;
  limits: Record<LimitKey, LimitRule>;
  /** Section 5 facts (spec/rules/auth.yaml): S2S token algorithm, validity, scope, claims; identity headers. */
  auth: AuthFacts;
  /** Compiled validators: key is `${operationId}:${status}` or a component name `#/components/schemas/X`. */
  validator(key: string): ValidateFunction | undefined;
  /** Validates an error body against the section 7 body shape. */
  errorBodyValidator: ValidateFunction;
}
