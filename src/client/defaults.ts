// The client's fixed bounds, in one place so the session, the recorder and the runner's time limit
// agree on them. The request time budget is not here: it is section 8's recommended timeout, read
// from the model.

export const CLIENT_DEFAULTS = {
  maxBodyBytes: 2 * 1024 * 1024,
  /** Bodies kept in recorded exchanges (reports), per direction. */
  recordBodyBytes: 8 * 1024,
  /** Curl commands carry the whole body up to this size so they reproduce the request. */
  curlBodyBytes: 64 * 1024,
  userAgent: 'baas-conform',
} as const;

/** An answer within this is "fast": waiting on it does not extend a check's time limit. */
export const FAST_ANSWER_MS = 100;
