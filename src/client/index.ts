// HTTP client for checks: undici pools per origin, time budget, bounded bodies, 429 backoff, recorded exchanges.
export { HttpSession, CLIENT_DEFAULTS, type HttpSessionOptions, type CheckClientOptions, type CheckHttpClient } from './http.ts';
export { TransportError, isTransportError, type TransportErrorCode } from './errors.ts';
export { RETRY_DEFAULTS, backoffDelay, parseRetryAfter, type RetryOptions } from './retry.ts';
export { toCurl } from './curl.ts';
export { readTargetCa, targetOrigins, targetSecureContext, tlsConnectOptions } from './target-ca.ts';
export { createUserRequest, s2sUserHeaders, tokenRequest, userIdOf, type OperationCall } from './credentials.ts';
export { TokenSource, type IssuedToken, type TokenSourceOptions } from './token-source.ts';
