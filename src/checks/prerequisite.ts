// Root causes, not echoes. A check that needs another operation first (tokenize a card before it can
// create a Card recipient) and sees that step fail has observed nothing about its own rules: it is
// *blocked* by that operation. Setup helpers throw PrerequisiteFailed; the runner reports the check
// as blocked by the operation's rules, so one missing endpoint reads as one cause, not five failures.

import { isTransportError } from '../client/errors.ts';
import type { ControlOperationId, OperationId, RuleId } from '../model/types.ts';
import { CheckFailure } from './signals.ts';
import type { HttpClient, HttpRequest, HttpResponse } from './types.ts';

/** What a setup step calls: an operation of spec/openapi.yaml, or a control operation of spec/control.yaml. */
export type StepOperation = OperationId | `control:${ControlOperationId}`;

export interface PrerequisiteOptions {
  /** Rules of `operation` the failed step breaks; default: the model's happy-path rules for it. */
  rules?: RuleId[];
  response?: HttpResponse;
  /**
   * The profile key that kept the step from being judged (profile.operation_auth.tokenizeCard: the
   * target refused credentials the spec does not show). Blocks even a check whose own rules are about
   * the operation, naming no rule: nothing of the target was judged.
   */
  setting?: string;
}

export class PrerequisiteFailed extends Error {
  readonly code = 'CHECK_BLOCKED';
  /** operationId (spec/openapi.yaml) of the setup step that failed. */
  readonly operation: StepOperation;
  readonly rules?: RuleId[];
  readonly response?: HttpResponse;
  readonly setting?: string;
  constructor(operation: StepOperation, message: string, opts: PrerequisiteOptions = {}) {
    super(message);
    this.name = 'PrerequisiteFailed';
    this.operation = operation;
    this.rules = opts.setting ? [] : opts.rules;
    this.response = opts.response;
    if (opts.setting) this.setting = opts.setting;
  }
}

export function isPrerequisiteFailed(err: unknown): err is PrerequisiteFailed {
  return err instanceof PrerequisiteFailed || (err instanceof Error && (err as { code?: string }).code === 'CHECK_BLOCKED' && typeof (err as { operation?: unknown }).operation === 'string');
}

const SHOW = 300;

/** A setup call must succeed (any 2xx): otherwise the check is blocked by `operation`. */
export function expectPrerequisite2xx(res: HttpResponse, operation: StepOperation, what: string, rules?: RuleId[]): void {
  if (res.status >= 200 && res.status < 300) return;
  const body = res.text.length > SHOW ? `${res.text.slice(0, SHOW)}…` : res.text;
  throw new PrerequisiteFailed(operation, `${what}: expected a 2xx answer, got HTTP ${res.status}: ${body}`, { rules, response: res });
}

/**
 * Sends a setup request and requires a 2xx: a refusal, or a transport failure (refused, reset, DNS,
 * TLS, timeout; not the check's own abort), blocks the check by `req.op`.
 */
export async function sendStep(http: HttpClient, req: HttpRequest & { op: OperationId }, what: string, rules?: RuleId[]): Promise<HttpResponse> {
  let res: HttpResponse;
  try {
    res = await http.send(req);
  } catch (err) {
    // A target still rate limiting after the client's wait bound breaks no rule: the runner blocks the
    // check naming none (src/runner/causes.ts), even when the step is the check's own operation.
    if (isTransportError(err) && err.code === 'RATE_LIMITED') throw err;
    // A body over the client's cap breaks no rule (the spec sets no size): blocked, naming none.
    if (isTransportError(err) && err.code !== 'ABORTED') throw new PrerequisiteFailed(req.op, `${what}: ${err.code}: ${err.message}`, { rules: err.code === 'BODY_TOO_LARGE' ? [] : rules });
    throw err;
  }
  expectPrerequisite2xx(res, req.op, what, rules);
  return res;
}

/** A setup answer must carry what the next step needs (e.g. card_token): otherwise blocked by `operation`. */
export function prerequisite(condition: unknown, operation: StepOperation, message: string, opts: PrerequisiteOptions = {}): asserts condition {
  if (!condition) throw new PrerequisiteFailed(operation, message, opts);
}

/** A check's own failure on the operation it is about; `operation` lets the root-cause summary group blocked checks under it. */
export class OwnStepFailure extends CheckFailure {
  readonly operation: StepOperation;
  constructor(operation: StepOperation, message: string, response?: HttpResponse) {
    super(message, { response });
    this.operation = operation;
  }
}

/**
 * Runs `fn`, whose subject is `operation`: a setup helper failing on that very operation is this
 * check's own failure (schema.tokenize-card calling the tokenize helper), not a blocked one.
 */
export async function ownStep<T>(operation: StepOperation, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    // Not a step refused for credentials the profile supplies (err.setting): that judged nothing, and stays blocked.
    if (isPrerequisiteFailed(err) && err.operation === operation && !err.setting) throw new OwnStepFailure(operation, err.message, err.response);
    throw err;
  }
}
