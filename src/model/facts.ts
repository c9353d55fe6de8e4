// Single values the spec states once and several subsystems need: the token request's grant type
// (section 4: "grant_type ... must be `client_credentials`"), the recommended client request timeout
// (section 8: "Recommended client request timeout | 30 seconds") and the recommended token refresh
// buffer (section 8: "Recommended token refresh buffer | 5 minutes before expiry") and the S2S token
// validity (section 8: "S2S token validity | 48 hours"). Each is read
// from the model here, so no caller digs it out of the raw OpenAPI or restates it as a literal.

import { ModelError } from '../errors/index.ts';
import type { ErrorRuleId, LimitKey, LimitRule, Model, Operation, OperationId, WebhookId } from './types.ts';

export interface SpecFacts {
  /** The one grant_type value the createToken request schema allows (section 4). */
  grantType(): string;
  /** Section 8's recommended client request timeout, in ms (spec/rules/limits.yaml request_timeout). */
  requestTimeoutMs(): number;
  /** Section 8's recommended token refresh buffer, in seconds (spec/rules/limits.yaml token_refresh_buffer). */
  refreshBufferSeconds(): number;
  /** Section 8's S2S token validity, in seconds (spec/rules/limits.yaml s2s_token_validity). */
  tokenValiditySeconds(): number;
}

function seconds(limits: Partial<Record<LimitKey, LimitRule>>, key: LimitKey): number {
  const v = limits[key]?.value;
  if (typeof v !== 'number' || limits[key]?.unit !== 'seconds') throw new ModelError('spec/rules/limits.yaml', `/limits (key ${key})`, `the ${key} limit has no value in seconds (section 8)`);
  return v;
}

/** "METHOD /path" of an operation, for step labels and messages (a path the spec does not show reads as its id). */
export function operationLabel(op: Operation): string {
  return `${op.method.toUpperCase()} ${op.pathUnspecified ? `<${op.operationId}>` : op.path}`;
}

export function specFactsOf(operations: ReadonlyMap<OperationId, Operation>, limits: Partial<Record<LimitKey, LimitRule>>): SpecFacts {
  return {
    grantType() {
      const schema = operations.get('createToken')?.requestSchema as { properties?: { grant_type?: { enum?: unknown[] } } } | undefined;
      const e = schema?.properties?.grant_type?.enum;
      if (!Array.isArray(e) || e.length !== 1 || typeof e[0] !== 'string') throw new ModelError('spec/openapi.yaml', '/components/schemas/CreateTokenRequest/properties/grant_type', 'the createToken request needs a single grant_type enum value (section 4)');
      return e[0];
    },
    requestTimeoutMs: () => seconds(limits, 'request_timeout') * 1000,
    refreshBufferSeconds: () => seconds(limits, 'token_refresh_buffer'),
    tokenValiditySeconds: () => seconds(limits, 's2s_token_validity'),
  };
}

/**
 * Expands the spec facts a hand-written text (a driver's check title) names by id: `{op:ID}` ->
 * "METHOD /path", `{path:ID}` -> the path, `{message:RULE}` -> the section 7 message, `{webhook:ID}`
 * -> the delivery path. The generator renders titles with it, so a title never restates a fact;
 * an unknown id throws naming it.
 */
export function renderSpecText(text: string, model: Pick<Model, 'operation' | 'errorRule' | 'webhookPath'>): string {
  return text.replace(/\{(op|path|message|webhook):([A-Za-z0-9-]+)\}/g, (_m, kind: string, id: string) => {
    if (kind === 'op') return operationLabel(model.operation(id as OperationId));
    if (kind === 'path') return model.operation(id as OperationId).path;
    if (kind === 'webhook') return model.webhookPath(id as WebhookId);
    const message = model.errorRule(id as ErrorRuleId).message;
    if (message === null || message === undefined) throw new Error(`renderSpecText: ${id} has no message`);
    return message;
  });
}
