// Request-field readers: each failure is a section 7 validation body naming the field.

import type { ErrorFactory } from './errors.ts';

const AMOUNT = /^(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,8})?$/;

export class Fields {
  constructor(private readonly errors: ErrorFactory) {}

  /** A required non-empty string ('' and null count as missing). */
  string(body: Record<string, unknown>, name: string, max = 256): string {
    const v = body[name];
    if (v === undefined || v === null || v === '') throw this.errors.missing(name);
    if (typeof v !== 'string' || v.length > max) throw this.errors.invalid(name);
    return v;
  }

  optString(body: Record<string, unknown>, name: string, max = 256): string | undefined {
    const v = body[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string' || v === '' || v.length > max) throw this.errors.invalid(name);
    return v;
  }

  /** A value already taken from the body (e.g. through an alias pair) that must be a non-empty string. */
  value(v: unknown, name: string, max = 256): string {
    if (v === undefined || v === null || v === '') throw this.errors.missing(name);
    if (typeof v !== 'string' || v.length > max) throw this.errors.invalid(name);
    return v;
  }

  boolean(body: Record<string, unknown>, name: string): boolean {
    const v = body[name];
    if (v === undefined || v === null) throw this.errors.missing(name);
    if (typeof v !== 'boolean') throw this.errors.invalid(name);
    return v;
  }

  /** A positive decimal amount as a number or a decimal string; returned as a string with 2+ decimals. */
  amount(body: Record<string, unknown>, name: string, required = true): string | undefined {
    const v = body[name];
    if (v === undefined || v === null || v === '') {
      if (required) throw this.errors.missing(name);
      return undefined;
    }
    const s = typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? v : undefined;
    if (s === undefined || !AMOUNT.test(s) || Number(s) <= 0) throw this.errors.invalid(name);
    return Number(s).toFixed(2);
  }

  /** An integer (Unix seconds and the like) given as a JSON number or a digit string. */
  integer(body: Record<string, unknown>, name: string, required = true): number | undefined {
    const v = body[name];
    if (v === undefined || v === null || v === '') {
      if (required) throw this.errors.missing(name);
      return undefined;
    }
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?[0-9]{1,15}$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < 0) throw this.errors.invalid(name);
    return n;
  }

  oneOf<T extends string>(body: Record<string, unknown>, name: string, values: readonly T[]): T {
    const v = this.string(body, name);
    if (!(values as readonly string[]).includes(v)) throw this.errors.invalid(name);
    return v as T;
  }
}
