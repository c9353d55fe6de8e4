// Target profile: load, validate, resolve (defaults + overrides), mask secrets; and the config file.
export type { ClientCredentials, OperationLocation, ResolvedProfile, TargetProfile } from './types.ts';
export { loadProfile, readProfileFile, resolveProfile, PROFILE_DEFAULTS, CREDENTIAL_ENV, type ProfileOverrides } from './resolve.ts';
export { maskSecrets, secretsOf, MASK } from './mask.ts';
export { loadConfig, CONFIG_FILE_NAME, type RunConfig } from './config.ts';
