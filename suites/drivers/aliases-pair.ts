// Section 9 alias pairs: the alias rule of an id, and the assertion that an object carries both names
// with the same value (shared by the response, request and webhook alias drivers).

import type { AliasRule, AliasRuleId } from '../../src/model/types.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import { aliasProblem, CheckFailure } from '../kit/index.ts';

export function aliasRule(ctx: CheckContext, id: AliasRuleId): AliasRule {
  const r = ctx.model.rule(id);
  if (r.kind !== 'alias') throw new Error(`${id} is not an alias rule`);
  return r;
}

export function expectPair(rule: AliasRule, obj: unknown, expected: string | undefined, what: string, res?: HttpResponse): void {
  const p = aliasProblem(obj, rule.old, rule.new, expected);
  if (p) throw new CheckFailure(`${what}: ${p}`, { rules: [rule.id], response: res });
}

/** Addresses and ids compare case-insensitively. */
export const sameText = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();
