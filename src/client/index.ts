// HTTP client for checks: undici pools per origin, time budget, bounded bodies, 429 backoff, recorded exchanges.
export { HttpSession, type HttpSessionOptions } from './http.ts';
export { CLIENT_DEFAULTS, FAST_ANSWER_MS } from './defaults.ts';
export type { CheckClientOptions, CheckHttpClient } from './check-client.ts';
export type { RequestTarget } from './request-target.ts';
export { TransportError, isTransportError, type TransportErrorCode } from './errors.ts';
export { RETRY_DEFAULTS, backoffDelay, parseRetryAfter, type RetryOptions } from './retry.ts';
export { toCurl } from './curl.ts';
export { readTargetCa, targetOrigins, targetSecureContext, tlsConnectOptions } from './target-ca.ts';
export { createUserRequest, s2sUserHeaders, tokenRequest, userIdOf, type OperationCall } from './credentials.ts';
export { TokenSource, type IssuedToken, type TokenSourceOptions } from './token-source.ts';
export { credentialRow, credentialsHint, operationAuthHeaders, operationAuthOf, refusalText, refusesCredentials, type OperationAuthTokens } from './operation-auth.ts';
