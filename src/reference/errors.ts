// Section 7 error bodies. Status, reason, message and category of every row the spec shows come
// from the model (`model.errorRule(id)`); handlers never carry error text. Where the spec leaves a
// row's reason or message "not shown", REFERENCE_FILL gives the reference server's choice, and
// validation failures the spec does not list use the generic texts of GENERIC_TEXT.

import type { Category, ErrorRuleId } from '../model/types.ts';
import type { ReferenceModel } from './model.ts';

export interface ErrorDetail {
  key: string;
  details: string;
}

export interface ErrorBody {
  error_reason: string;
  error_description: string;
  error_category: { category: Category | string; http_status_code: number };
  error_details: ErrorDetail[];
}

/** A response carrying a section 7 body; thrown by handlers and auth, rendered by the server. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly headers?: Record<string, string>;
  /** The model rule this error renders, when there is one. */
  readonly ruleId?: ErrorRuleId;
  constructor(status: number, body: ErrorBody, headers?: Record<string, string>, ruleId?: ErrorRuleId) {
    // An answer, not a fault: nobody reads its stack, and capturing one per 4xx was a measurable share
    // of a selftest run's CPU (every variant run answers hundreds of them).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(body.error_description);
    Error.stackTraceLimit = limit;
    this.status = status;
    this.body = body;
    this.headers = headers;
    this.ruleId = ruleId;
  }
}

/** Reference choices for rows whose reason/message the spec marks "not shown". */
export const REFERENCE_FILL: Partial<Record<ErrorRuleId, { reason: string; message: string; details?: string[] }>> = {
  'ERR-3DS-NOT-FOUND': { reason: 'ErrorNotFound', message: 'Transaction not found', details: ['transaction_id'] },
  'ERR-SEPA-WRONG-PATH': { reason: 'ErrorInvalidField', message: 'Activation path does not match the SepaAccount capability status', details: ['account_type'] },
  'ERR-CHAIN-NOT-NUMERIC': { reason: 'ErrorInvalidField', message: 'Invalid value for chain_id', details: ['chain_id'] },
  'ERR-ALIAS-MISMATCH': { reason: 'ErrorInvalidField', message: 'Field and its deprecated alias have different values' },
  'ERR-RATE-LIMITED': { reason: 'ErrorRateLimited', message: 'Too many requests' },
};

export type ValidationReason = 'ErrorMissingField' | 'ErrorInvalidField' | 'ErrorNotFound' | 'ErrorNotSupported';

/** Texts of validation failures the spec does not list (section 7 other rule 5: "not shown"). */
const GENERIC_TEXT: Record<ValidationReason, (field: string) => string> = {
  ErrorMissingField: (f) => `${f} is required`,
  ErrorInvalidField: (f) => `Invalid value for ${f}`,
  ErrorNotFound: (f) => `${f} not found`,
  ErrorNotSupported: (f) => `${f} is not supported`,
};

export class ErrorFactory {
  private readonly model: ReferenceModel;
  private readonly cache = new Map<ErrorRuleId, { status: number; reason: string; message: string; category: string; details: string[] }>();
  constructor(model: ReferenceModel) {
    this.model = model;
  }

  private resolved(id: ErrorRuleId) {
    let r = this.cache.get(id);
    if (!r) {
      const rule = this.model.errorRule(id);
      const fill = REFERENCE_FILL[id];
      const category = rule.category ?? this.model.categoryFor(rule.status) ?? 'CategoryValidationFailure';
      r = {
        status: rule.status,
        reason: rule.reason ?? fill?.reason ?? 'ErrorInvalidField',
        message: rule.message ?? fill?.message ?? rule.cause,
        category,
        details: rule.details ?? fill?.details ?? [],
      };
      this.cache.set(id, r);
    }
    return r;
  }

  /** The error of model rule `id`; `fields` overrides the rule's error_details fields. */
  rule(id: ErrorRuleId, fields?: string[], headers?: Record<string, string>): ApiError {
    const r = this.resolved(id);
    const details = (fields ?? r.details).map((d) => ({ key: 'field', details: d }));
    return new ApiError(
      r.status,
      { error_reason: r.reason, error_description: r.message, error_category: { category: r.category, http_status_code: r.status }, error_details: details },
      headers,
      id,
    );
  }

  /** Status the model gives a rule (e.g. for the SEPA wrong-path row). */
  statusOf(id: ErrorRuleId): number {
    return this.resolved(id).status;
  }

  /** A 400 validation failure the spec does not list, naming `field`. */
  validation(reason: ValidationReason, field: string): ApiError {
    const category = this.model.categoryFor(400) ?? 'CategoryValidationFailure';
    return new ApiError(400, {
      error_reason: reason,
      error_description: GENERIC_TEXT[reason](field),
      error_category: { category, http_status_code: 400 },
      error_details: [{ key: 'field', details: field }],
    });
  }

  missing(field: string): ApiError {
    return this.validation('ErrorMissingField', field);
  }
  invalid(field: string): ApiError {
    return this.validation('ErrorInvalidField', field);
  }
  notFound(field: string): ApiError {
    return this.validation('ErrorNotFound', field);
  }

  /**
   * Unknown route (404) or method (405). Section 7 has no category for these statuses; the body keeps
   * the section 7 shape with http_status_code equal to the HTTP status and the validation category.
   */
  route(status: 404 | 405, method: string, path: string): ApiError {
    return new ApiError(
      status,
      {
        error_reason: status === 404 ? 'ErrorNotFound' : 'ErrorNotSupported',
        error_description: status === 404 ? 'Route not found' : 'Method not allowed',
        error_category: { category: 'CategoryValidationFailure', http_status_code: status },
        error_details: [{ key: 'path', details: `${method} ${path}` }],
      },
    );
  }

  /** Control API: unknown entity (404). */
  controlNotFound(field: string): ApiError {
    return new ApiError(404, {
      error_reason: 'ErrorNotFound',
      error_description: GENERIC_TEXT.ErrorNotFound(field),
      error_category: { category: 'CategoryValidationFailure', http_status_code: 404 },
      error_details: [{ key: 'field', details: field }],
    });
  }

  /** 500 for an unexpected failure (a bug); the body keeps the section 7 shape. */
  internal(): ApiError {
    const category = this.model.categoryFor(500) ?? 'CategoryInternalFailure';
    return new ApiError(500, {
      error_reason: 'ErrorInternal',
      error_description: 'Internal error',
      error_category: { category, http_status_code: 500 },
      error_details: [],
    });
  }
}
