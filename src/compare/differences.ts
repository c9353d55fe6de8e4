// The differences between two answers to one step, placed by the model (classify.ts), and their
// aggregation: one entry per operation, field and change, counting the steps that show it.

import type { Category, Model, Operation } from '../model/types.ts';
import { shapeDifferences, type ShapeDifference } from '../replay/index.ts';
import { placeBody, placeStatus, type Placement } from './classify.ts';
import type { StepPair } from './pair.ts';
import type { Step } from './steps.ts';
import { COMPARE_LIMITS, type DifferenceKind, type StepDifference } from './types.ts';
import type { VolatileMatcher } from './volatile.ts';

export interface Found {
  operation: string;
  kind: DifferenceKind;
  field: string;
  a?: string;
  b?: string;
  placement: Placement;
}

const KIND: Record<ShapeDifference['kind'], DifferenceKind> = { 'only-first': 'only-a', 'only-second': 'only-b', type: 'type', value: 'value', emptiness: 'emptiness' };

const TRANSIENT: Category = 'CategoryTransientFailure';
const PLACEHOLDER = /^"<[a-z]+>"$/;

/**
 * A free-form value (one the model does not enumerate) differs in form, not just in text: another
 * kind of id or timestamp (a UUID against a ULID, a number-like string against a placeholder), or the
 * same word in another letter case. Its text alone is not compared: names, generated ids and
 * server-made strings differ between any two targets, and between two runs of one.
 */
function differentForm(d: ShapeDifference): boolean {
  const [x, y] = [d.first ?? '', d.second ?? ''];
  if (!x.startsWith('"') || !y.startsWith('"')) return true; // booleans
  if (PLACEHOLDER.test(x) || PLACEHOLDER.test(y)) return true;
  return x.toLowerCase() === y.toLowerCase();
}


export class StepComparer {
  constructor(
    private readonly model: Model,
    private readonly isVolatile: VolatileMatcher,
    /** The rules a check covers (the section 7 rows it expects): where an error body's values are specified. */
    private readonly rulesOf: (check: string) => readonly string[] | undefined = () => undefined,
  ) {}

  /**
   * Whether the two answers can be compared: both answered, neither body cut at the recording bound,
   * and not a transient failure (section 7's CategoryTransientFailure, 429) on one side only: when a
   * rate limit answers depends on when the request came, and the spec shows no numeric limits.
   */
  comparable(a: Step, b: Step): boolean {
    if (a.status === undefined || b.status === undefined || a.truncated || b.truncated) return false;
    const transient = (s: number) => this.model.categoryFor(s) === TRANSIENT;
    return transient(a.status) === transient(b.status);
  }

  private op(operation: string): Operation | undefined {
    return this.model.isOperationId(operation) ? this.model.operations.get(operation) : undefined;
  }

  /** What differs between two comparable answers to the same step. */
  differences(operation: string, a: Step, b: Step): Found[] {
    const op = this.op(operation);
    if (a.status !== b.status) return [{ operation, kind: 'status', field: 'status', a: String(a.status), b: String(b.status), placement: placeStatus(op, a.status!, b.status!) }];
    const [ja, jb] = [a.json !== undefined, b.json !== undefined];
    if (ja !== jb) {
      if (!a.hasBody && !b.hasBody) return [];
      const show = (s: Step, json: boolean) => (json ? 'JSON' : s.hasBody ? 'not JSON' : 'no body');
      return [{ operation, kind: 'body', field: '$', a: show(a, ja), b: show(b, jb), placement: placeBody(this.model, op, a.status, 'body') }];
    }
    if (!ja) return [];
    const skip = (path: string) => this.isVolatile(operation, path);
    return shapeDifferences(a.json, b.json, { skip, normaliseKeys: true }).flatMap((d) => {
      const kind = KIND[d.kind];
      const placement = placeBody(this.model, op, a.status, kind, d, this.rulesOf(a.check));
      if (kind === 'value' && placement.silent && !placement.code && !differentForm(d)) return [];
      return [{ operation, kind, field: d.path, ...(d.first !== undefined ? { a: d.first } : {}), ...(d.second !== undefined ? { b: d.second } : {}), placement }];
    });
  }

  /** The answers show no difference (pairing tries these first). */
  alike = (a: Step, b: Step): boolean => this.comparable(a, b) && this.differences(a.operation, a, b).length === 0;
}

/** Aggregates differences over steps: one entry per operation, kind, field and values. */
export class DifferenceTally {
  private readonly entries = new Map<string, StepDifference>();

  add(pair: StepPair, found: Found): void {
    const key = JSON.stringify([found.operation, found.kind, found.field, found.a, found.b]);
    const hit = this.entries.get(key);
    if (hit) {
      hit.occurrences++;
      if (!hit.checks.includes(pair.check) && hit.checks.length < COMPARE_LIMITS.checksPerDifference) hit.checks.push(pair.check);
      return;
    }
    const { placement, ...rest } = found;
    this.entries.set(key, { ...rest, why: placement.why, occurrences: 1, checks: [pair.check] });
  }

  list(): StepDifference[] {
    return [...this.entries.values()].sort((x, y) => x.operation.localeCompare(y.operation) || x.field.localeCompare(y.field) || x.kind.localeCompare(y.kind));
  }
}
