// Target profile: load, validate, resolve (defaults + overrides), mask secrets; and the config file.
export type { ClientCredentials, OperationAuth, OperationAuthMode, OperationLocation, ResolvedProfile, TargetProfile } from './types.ts';
export { checkOperationAuth, DEFAULT_OPERATION_AUTH, type AuthUnspecifiedOperations } from './operation-auth.ts';
export { loadProfile, readProfileFile, resolveProfile, PROFILE_DEFAULTS, CREDENTIAL_ENV, type ProfileOverrides } from './resolve.ts';
export { applyRequestTemplate } from './request-template.ts';
export { maskSecrets, secretsOf, MASK } from './mask.ts';
export { loadConfig, CONFIG_FILE_NAME, type RunConfig } from './config.ts';
