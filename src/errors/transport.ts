// A transport failure, with a stable code. A check that hits one fails with the code as cause; the
// preflight turns the connection codes into TargetUnreachableError.
import { BaasConformError } from './base.ts';

export type TransportErrorCode =
  | 'TIMEOUT'
  | 'CONNECTION_RESET'
  | 'CONNECTION_REFUSED'
  | 'DNS'
  | 'TLS'
  | 'BODY_TOO_LARGE'
  | 'BODY_TOO_DEEP'
  /** The target kept answering 429 past the client's wait bound (RETRY_DEFAULTS.maxWaitMs). */
  | 'RATE_LIMITED'
  /**
   * The operation answered a redirect to its own path with the trailing slash added or removed (a
   * framework's route normalisation, FastAPI's 307): the path the profile gives is spelled differently
   * from the target's route. Nothing of the spec is judged from it (ERR-BODY-SHAPE framework-routes).
   */
  | 'SLASH_REDIRECT'
  | 'DECODE'
  | 'ABORTED'
  | 'PROTOCOL'
  | 'TRANSPORT';

export class TransportError extends BaasConformError {
  declare readonly code: TransportErrorCode;
  readonly url: string;
  /** The rule the target broke when the failure is the target's (a body nested too deep is not JSON the client can read). */
  readonly ruleId?: string;
  /** operationId of the request, when the check named one (set by the check client). */
  operation?: string;
  /**
   * For BODY_TOO_LARGE: the body bytes the client held when it refused (raw bytes read, or bytes the
   * decoder produced). Tests assert memory on this, not on the process heap, which also counts
   * whatever else the process does.
   */
  bytes?: number;
  constructor(code: TransportErrorCode, message: string, url: string, ruleId?: string) {
    super(code, message, 3);
    this.url = url;
    if (ruleId) this.ruleId = ruleId;
  }
}
