// The one number parser behind every numeric flag and config key: it turns a value into a trusted
// number or throws a ConfigError naming the flag, the accepted range and the value given.
import { ConfigError } from '../errors/index.ts';

export interface NumberBounds {
  min?: number;
  max?: number;
  /** Only whole numbers (counts, ms, ports, seeds). */
  integer?: boolean;
  /** How the range reads in the message, when `a number from min to max` says too little (e.g. a port). */
  what?: string;
}

/** undefined when the value is absent; else the number, or a ConfigError that says what to give. */
export function parseNumber(flag: string, value: unknown, bounds: NumberBounds = {}): number | undefined {
  return readNumber(`--${flag}`, value, bounds);
}

/** parseNumber with the problem reported under `label` (a plan's or a library's key, not a flag). */
export function readNumber(label: string, value: unknown, bounds: NumberBounds = {}): number | undefined {
  if (value === undefined || value === null) return undefined;
  const { min = -Infinity, max = Infinity, integer = false } = bounds;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
    const kind = integer ? 'an integer' : 'a number';
    const range = Number.isFinite(min) && Number.isFinite(max) ? ` from ${min} to ${max}` : Number.isFinite(min) ? ` >= ${min}` : Number.isFinite(max) ? ` <= ${max}` : '';
    throw new ConfigError(`${label} must be ${bounds.what ?? `${kind}${range}`}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** The kinds of value many options share, each range written once (modes' bound tables spread these). */
export const POSITIVE_INT = { integer: true, min: 1, what: 'a positive integer' } as const;
export const NON_NEGATIVE_INT = { integer: true, min: 0 } as const;
/** A seed: any unsigned 32-bit integer (fast-check's and the poisson schedule's). */
export const SEED_BOUNDS = { integer: true, min: 0, max: 0xffffffff } as const;
/** A share from 0 to 1 (--min-coverage, --judge-sample, --error-rate-max). */
export const SHARE_BOUNDS = { min: 0, max: 1, what: 'a share from 0 to 1 (e.g. 0.9)' } as const;
/** A per-request time budget in ms (--timeout-budget of run, compare, selftest and load). */
export const TIMEOUT_BUDGET_BOUNDS = { integer: true, min: 100, max: 300_000 } as const;

export const positiveInt = (flag: string, value: unknown) => parseNumber(flag, value, POSITIVE_INT);
export const nonNegativeInt = (flag: string, value: unknown) => parseNumber(flag, value, NON_NEGATIVE_INT);
export const parseSeed = (value: unknown, flag = 'seed') => parseNumber(flag, value, SEED_BOUNDS);
export const parsePort = (flag: string, value: unknown) => parseNumber(flag, value, { integer: true, min: 0, max: 65535, what: 'a port number from 0 to 65535' });
/** A share from 0 to 1 (--min-coverage, --judge-sample). */
export const parseShare = (flag: string, value: unknown) => parseNumber(flag, value, SHARE_BOUNDS);
/** An integer flag within min..max, or `def` when absent (the coordinator's counts and intervals). */
export const boundedInt = (flag: string, value: unknown, def: number, min: number, max: number): number => parseNumber(flag, value, { integer: true, min, max }) ?? def;
