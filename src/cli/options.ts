// Argument parsers shared by the thin command files: each turns a flag value into a trusted option
// or throws a ConfigError (exit 2) that names the flag.
import { ConfigError } from '../errors/index.ts';

export function positiveInt(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

export function parseSeed(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new ConfigError(`--seed must be an integer from 0 to 4294967295, got ${JSON.stringify(value)}`);
  return n;
}

/** A share from 0 to 1 (--min-coverage); undefined when not given. */
export function parseShare(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new ConfigError(`--${name} must be a share from 0 to 1 (e.g. 0.9), got ${JSON.stringify(value)}`);
  }
  return n;
}
