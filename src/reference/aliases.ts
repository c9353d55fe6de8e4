// Deprecated field aliases (section 4 rule 4, section 9 rule 3), by model rule: the pair of names comes
// from spec/rules/aliases.yaml, so handlers and views name a rule id, never the two field names.
// Where the reference also carries a pair the spec does not list for that payload (the user id on
// creation, the statement and FX answers), it reuses the rule of the same pair.

import type { AliasRule, AliasRuleId, Model } from '../model/types.ts';
import type { ErrorFactory } from './errors.ts';
import type { FaultPoint } from './faults.ts';

export class Aliases {
  /** Rules by id, looked up in the model once each (views write aliases on every response). */
  private readonly rules = new Map<AliasRuleId, AliasRule>();

  constructor(
    private readonly model: Model,
    private readonly errors: ErrorFactory,
    private readonly fault: (name: FaultPoint) => boolean,
  ) {}

  rule(id: AliasRuleId): AliasRule {
    let r = this.rules.get(id);
    if (!r) this.rules.set(id, (r = this.model.aliasRule(id)));
    return r;
  }

  /**
   * A request field under its preferred name or its deprecated alias; both present must carry the same
   * value (compared case-insensitively for addresses), else ERR-ALIAS-MISMATCH naming both.
   */
  read(body: Record<string, unknown>, id: AliasRuleId, caseInsensitive = false): unknown {
    const r = this.rule(id);
    const a = body[r.new];
    const b = body[r.old];
    if (a !== undefined && b !== undefined && !this.fault('alias.accept-mismatch')) {
      const same = caseInsensitive && typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : a === b;
      if (!same) throw this.errors.rule('ERR-ALIAS-MISMATCH', [r.new, r.old]);
    }
    return a !== undefined ? a : b;
  }

  /** Sets the preferred name and its deprecated alias to the same value. */
  write(obj: Record<string, unknown>, id: AliasRuleId, value: unknown): void {
    const r = this.rule(id);
    obj[r.new] = value;
    if (this.fault('alias.drop-deprecated') || (r.direction === 'webhook' && this.fault('webhooks.drop-aliases'))) return;
    obj[r.old] = this.fault('alias.different-values') && typeof value === 'string' ? `${value}-stale` : value;
  }

  /** The preferred name of a pair (for error details naming the field). */
  preferred(id: AliasRuleId): string {
    return this.rule(id).new;
  }
}
