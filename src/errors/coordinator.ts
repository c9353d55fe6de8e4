// Errors of a coordinated load run (load coordinate, load --coordinator): exit 2, like any other
// configuration problem, with a message that says what to do.
import { ConfigError } from './base.ts';

/** A shard's message broke the protocol (size, count, shape): refused with 400, never half-applied. */
export class CoordinatorProtocolError extends ConfigError {
  constructor(message: string) {
    super(`coordinator: ${message}`, 'BAAS_COORDINATOR_PROTOCOL');
  }
}

/** The coordinator refused a shard (wrong run token, another plan, a shard of another split, one joined twice), or a shard could not join. */
export class CoordinatorRefusedError extends ConfigError {
  constructor(message: string) {
    super(`coordinator: ${message}`, 'BAAS_COORDINATOR_REFUSED');
  }
}
