// The serve mode's entry: the reference implementation as a server (`baas-conform serve`), with its
// rate limit and an optional self-signed TLS identity.
export { DEFAULT_RATE_LIMIT, generateTlsIdentity, startReference, type RateLimitOptions, type ReferenceOptions, type ReferenceServer, type ReferenceTls } from '../reference/index.ts';
