// Every problem of one set of options at once (in the manner of k6's Validate()): a mode's qualify
// function records each bad value and carries on with a fallback, then throws one ConfigError that
// names them all, so a user fixes a command line in one go instead of one flag per attempt.

import { ConfigError } from '../errors/index.ts';
import { readNumber, type NumberBounds } from './numbers.ts';

/** A bound of one option: the flag it is reported under and its range. */
export type FlagBounds = NumberBounds & { flag: string };

export class OptionProblems {
  readonly list: string[] = [];
  /** `prefix` opens the one message (e.g. `load: `, where the values came from a plan rather than flags). */
  constructor(private readonly prefix = '') {}

  /**
   * The value within `bounds` (undefined when absent); a bad one is recorded and read as absent. The
   * problem names `--flag`, or `label` where the value came from elsewhere (a plan's key).
   */
  num(bounds: FlagBounds, value: unknown, label = `--${bounds.flag}`): number | undefined {
    return this.attempt(() => readNumber(label, value, bounds), undefined);
  }

  /** `fn`'s value; a ConfigError it throws is recorded and `fallback` returned. */
  attempt<T>(fn: () => T, fallback: T): T {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      this.list.push(err.message);
      return fallback;
    }
  }

  check(cond: boolean, message: string): void {
    if (!cond) this.list.push(message);
  }

  /** One ConfigError naming every problem recorded (none: nothing thrown). */
  throwIfAny(): void {
    if (this.list.length) throw new ConfigError(`${this.prefix}${this.list.join('; ')}`);
  }
}
