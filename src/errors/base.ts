// Typed errors with a stable code and a message that says what to do (after undici's lib/core/errors.js).
// Exit codes: 2 = usage/configuration/model error, 3 = target unreachable.

export class BaasConformError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(code: string, message: string, exitCode = 2) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** Command-line usage, config file or target profile is wrong. */
export class ConfigError extends BaasConformError {
  constructor(message: string, code = 'BAAS_CONFIG_INVALID') {
    super(code, message, 2);
  }
}

/** The target could not be reached at all (before any check runs). */
export class TargetUnreachableError extends BaasConformError {
  constructor(message: string) {
    super('BAAS_TARGET_UNREACHABLE', message, 3);
  }
}

/** Credentials in the profile were rejected by the target. */
export class CredentialsError extends BaasConformError {
  constructor(message: string) {
    super('BAAS_CREDENTIALS_REJECTED', message, 2);
  }
}

/**
 * A service the profile declares (control_url or a control adapter for the webhook receiver;
 * idp.enabled for the test identity provider) could not be registered with the target. A skip would
 * let a target that refuses registration pass every check that needs the service, so the run stops.
 */
export class ServiceRegistrationError extends BaasConformError {
  constructor(message: string) {
    super('BAAS_SERVICE_REGISTRATION_REFUSED', message, 2);
  }
}

/**
 * The command was cancelled (Ctrl-C, or the caller's AbortSignal) before it had a result. Exit 130,
 * the shell's 128 + SIGINT, so a script tells a cancelled run from a passing or failing one.
 */
export class CancelledError extends BaasConformError {
  constructor(message: string) {
    super('BAAS_CANCELLED', message, 130);
  }
}
