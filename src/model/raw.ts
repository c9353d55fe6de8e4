// The shapes of the spec/ documents as read (YAML parsed, $refs dereferenced), before the model types
// them: what load.ts, the control adapter and the generators read out of them. The rule files are
// validated against spec/schemas before they get here; the OpenAPI documents are read defensively
// (every member optional), since a user's spec/ may leave parts out.

import type { AuthFacts, Category, ClientRule, ClientRuleId, OperationId } from './types.ts';

/** A JSON Schema object (OpenAPI 3.1 schemas are JSON Schema 2020-12). */
export interface RawSchema {
  [keyword: string]: unknown;
  properties?: Record<string, RawSchema>;
  required?: string[];
  deprecated?: boolean;
  maximum?: number;
}

/** A content map: media type to its schema. */
export type RawContent = Record<string, { schema?: RawSchema } | undefined>;

export interface RawParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { pattern?: string };
}

export interface RawOperation {
  [member: string]: unknown;
  operationId?: string;
  summary?: string;
  requestBody?: { content?: RawContent };
  responses?: Record<string, { description?: string; content?: RawContent } | undefined>;
  servers?: { url: string }[];
  parameters?: RawParameter[];
  'x-path-unspecified'?: boolean;
  'x-auth-unspecified'?: boolean;
  'x-auth'?: string[];
  'x-user-scoped'?: boolean;
  'x-mutates'?: boolean;
  'x-moves-money'?: boolean;
  'x-webhook-path'?: string;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export type RawPathItem = { [K in HttpMethod]?: RawOperation } & {
  parameters?: RawParameter[];
  servers?: { url: string }[];
};

/** spec/openapi.yaml or spec/control.yaml, dereferenced. */
export interface RawOpenApi {
  [member: string]: unknown;
  paths?: Record<string, RawPathItem | undefined>;
  components?: { schemas?: Record<string, RawSchema> };
  webhooks?: Record<string, { post?: RawOperation } | undefined>;
  'x-unspecified-webhooks'?: Record<string, { summary?: string; schema?: RawSchema } | undefined>;
}

/** The members every rule of spec/rules shares. */
export interface RawRule {
  id: string;
  section?: string;
  summary: string;
  operations?: string[];
  testable?: boolean;
  untestable_reason?: string;
  /** `no`: its checks cannot be re-judged offline from a transcript (verify --rejudge); rejudge_reason says why. */
  rejudge?: 'offline' | 'no';
  rejudge_reason?: string;
  /** Why a testable rule is checked loosely (rules --audit). */
  loose?: string;
  unspecified?: unknown;
  readings?: unknown;
}

export interface RawErrorRule extends RawRule {
  table?: unknown;
  status: number;
  reason?: unknown;
  message?: unknown;
  category?: string;
  cause?: unknown;
  details?: unknown;
  details_not?: unknown;
}

export interface RawTransition {
  from?: string;
  to?: string;
}

export interface RawStateRule extends RawRule {
  wrong_transition_status?: unknown;
  transitions?: RawTransition[];
}

export interface RawMachine {
  name: string;
  section: string;
  states?: string[];
  pending_status?: unknown;
  rules: RawStateRule[];
}

export interface RawAliasRule extends RawRule {
  direction: unknown;
  old: unknown;
  new: unknown;
  webhook?: unknown;
}

export interface RawLimitRule extends RawRule {
  key: string;
  value?: unknown;
  unit?: unknown;
}

export interface RawGeneralRule extends RawRule {
  kind: string;
  facts?: unknown;
}

/** spec/rules/auth.yaml beyond its rules: the section 5 facts (Model.auth). */
export type RawAuth = AuthFacts & { rules: RawRule[] };

/** spec/rules/<name>.yaml, schema-valid. */
export interface RawRuleFiles {
  errors: {
    categories: { category: Category; status: number }[];
    body?: RawRule;
    category_status?: RawRule;
    other_unspecified?: RawRule;
    rules: RawErrorRule[];
  };
  states: { machines: RawMachine[] };
  aliases: { aliases: RawAliasRule[]; general?: RawRule[] };
  limits: { limits: RawLimitRule[] };
  auth: RawAuth;
  general: { rules: RawGeneralRule[] };
}

/** spec/rules/client.yaml, schema-valid. */
export interface RawClientRule extends RawRule {
  id: ClientRuleId;
  section: ClientRule['section'];
  level: ClientRule['level'];
  quote: string;
  cites?: string;
  operations: OperationId[];
  facts?: Record<string, string>;
}
