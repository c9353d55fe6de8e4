// The server rules of spec/rules/*.yaml (already schema-valid) as typed Rules, each with its source
// file and JSON pointer, and the checks that need more than one file: error categories agree with
// the section 7 table, transitions name their machine's states, limit keys and rule ids are unique,
// every operation a rule names exists, and an untestable rule says why.

import { ModelError } from '../errors/index.ts';
import type { RawRule, RawRuleFiles } from './raw.ts';
import { checkReadings } from './readings.ts';
import type { AliasRule, Category, ErrorRule, GenericRule, LimitRule, Operation, Rule, StateMachine, StateRule } from './types.ts';

export interface ParsedRules {
  rules: Rule[];
  categories: { category: Category; status: number }[];
  categoryFor(status: number): Category | null;
  machines: StateMachine[];
  limits: Record<string, LimitRule>;
}

function pickCommon(raw: RawRule, file: string, pointer: string, defaults: { section?: string } = {}) {
  return {
    id: raw.id as string,
    section: (raw.section ?? defaults.section) as string,
    summary: raw.summary as string,
    operations: (raw.operations ?? []) as string[],
    testable: raw.testable ?? true,
    ...(raw.untestable_reason ? { untestable_reason: raw.untestable_reason } : {}),
    ...(raw.rejudge ? { rejudge: raw.rejudge } : {}),
    ...(raw.rejudge_reason ? { rejudge_reason: raw.rejudge_reason } : {}),
    ...(raw.loose ? { loose: raw.loose as string } : {}),
    ...(raw.unspecified ? { unspecified: raw.unspecified } : {}),
    ...(raw.readings ? { readings: raw.readings } : {}),
    source: { file, pointer },
  };
}

/** The rules of every rule file, in file order (errors, states, aliases, limits, auth, general). */
export function rulesOf(raw: RawRuleFiles, operations: ReadonlyMap<string, Operation>): ParsedRules {
  const rules: Rule[] = [];
  // errors.yaml
  const categories = raw.errors.categories as { category: Category; status: number }[];
  const categoryFor = (status: number): Category | null => categories.find((c) => c.status === status)?.category ?? null;
  const ef = 'rules/errors.yaml';
  for (const key of ['body', 'category_status', 'other_unspecified'] as const) {
    const r = raw.errors[key];
    if (!r) continue;
    rules.push({ ...pickCommon(r, ef, `/${key}`), kind: 'general' } as GenericRule);
  }
  raw.errors.rules.forEach((r, i) => {
    const pointer = `/rules/${i}`;
    const derived = categoryFor(r.status);
    if (r.category && r.category !== derived) {
      throw new ModelError(`spec/${ef}`, `${pointer}/category`, `category ${r.category} disagrees with the section 7 table (${derived ?? 'none'} for HTTP ${r.status})`);
    }
    rules.push({
      ...pickCommon(r, ef, pointer, { section: '7' }),
      kind: 'error', table: r.table, status: r.status, reason: r.reason, message: r.message,
      category: derived, cause: r.cause,
      ...(r.details ? { details: r.details } : {}),
      ...(r.details_not ? { details_not: r.details_not } : {}),
    } as ErrorRule);
  });
  // states.yaml
  const sf = 'rules/states.yaml';
  const machines: StateMachine[] = raw.states.machines.map((m) => ({
    name: m.name,
    section: m.section,
    states: [...(m.states ?? [])],
    ...(m.pending_status ? { pending_status: m.pending_status } : {}),
  })) as StateMachine[];
  raw.states.machines.forEach((m, mi) => {
    m.rules.forEach((r, ri) => {
      // Transitions name states of their machine (when the machine lists its states).
      const states = m.states ?? [];
      if (states.length > 0) {
        (r.transitions ?? []).forEach((t, ti) => {
          for (const key of ['from', 'to'] as const) {
            if (t[key] !== undefined && !states.includes(t[key])) {
              throw new ModelError(`spec/${sf}`, `/machines/${mi}/rules/${ri}/transitions/${ti}/${key}`, `state "${t[key]}" is not one of machine ${m.name}'s states ${JSON.stringify(m.states)}`);
            }
          }
        });
      }
      rules.push({
        ...pickCommon(r, sf, `/machines/${mi}/rules/${ri}`, { section: m.section }),
        kind: 'state', machine: m.name,
        ...(r.wrong_transition_status ? { wrong_transition_status: r.wrong_transition_status } : {}),
        ...(r.transitions ? { transitions: r.transitions } : {}),
      } as StateRule);
    });
  });
  // aliases.yaml
  const af = 'rules/aliases.yaml';
  raw.aliases.aliases.forEach((r, i) => {
    rules.push({ ...pickCommon(r, af, `/aliases/${i}`), kind: 'alias', direction: r.direction, old: r.old, new: r.new, ...(r.webhook ? { webhook: r.webhook } : {}) } as AliasRule);
  });
  (raw.aliases.general ?? []).forEach((r, i) => {
    rules.push({ ...pickCommon(r, af, `/general/${i}`), kind: 'general' } as GenericRule);
  });
  // limits.yaml
  const lf = 'rules/limits.yaml';
  const limits: Record<string, LimitRule> = {};
  raw.limits.limits.forEach((r, i) => {
    const rule = { ...pickCommon(r, lf, `/limits/${i}`), kind: 'limit', ...(r.value !== undefined ? { value: r.value } : {}), ...(r.unit ? { unit: r.unit } : {}) } as LimitRule;
    if (limits[r.key]) throw new ModelError(`spec/${lf}`, `/limits/${i}/key`, `duplicate limit key "${r.key}"`);
    limits[r.key] = rule;
    rules.push(rule);
  });
  // auth.yaml
  const auf = 'rules/auth.yaml';
  raw.auth.rules.forEach((r, i) => {
    rules.push({ ...pickCommon(r, auf, `/rules/${i}`), kind: 'auth' } as GenericRule);
  });
  for (const [i, opId] of (raw.auth.user_agnostic_operations as string[]).entries()) {
    if (!operations.has(opId)) throw new ModelError(`spec/${auf}`, `/user_agnostic_operations/${i}`, `operation "${opId}" does not exist in spec/openapi.yaml`);
  }
  // general.yaml
  const gf = 'rules/general.yaml';
  raw.general.rules.forEach((r, i) => {
    rules.push({ ...pickCommon(r, gf, `/rules/${i}`), kind: r.kind, ...(r.facts ? { facts: r.facts } : {}) } as GenericRule);
  });
  return { rules, categories, categoryFor, machines, limits };
}

/** The rules by id, after the checks across files: unique ids, existing operations, untestable rules say why. */
export function rulesById(rules: readonly Rule[], operations: ReadonlyMap<string, Operation>): Map<string, Rule> {
  const byId = new Map<string, Rule>();
  for (const r of rules) {
    const prev = byId.get(r.id);
    if (prev) {
      throw new ModelError(`spec/${r.source.file}`, `${r.source.pointer}/id`, `duplicate rule id "${r.id}" (first defined in spec/${prev.source.file} at ${prev.source.pointer})`);
    }
    byId.set(r.id, r);
    r.operations.forEach((opId, i) => {
      if (!operations.has(opId)) {
        throw new ModelError(`spec/${r.source.file}`, `${r.source.pointer}/operations/${i}`, `rule ${r.id} points at operation "${opId}", which does not exist in spec/openapi.yaml`);
      }
    });
    checkReadings(r);
    if (r.rejudge === 'no' && !r.rejudge_reason) {
      throw new ModelError(`spec/${r.source.file}`, `${r.source.pointer}/rejudge_reason`, `rule ${r.id} is marked rejudge: no without a rejudge_reason (what the transcript does not hold)`);
    }
    if (!r.testable && !r.untestable_reason) {
      throw new ModelError(`spec/${r.source.file}`, `${r.source.pointer}/untestable_reason`, `rule ${r.id} is marked testable: false without an untestable_reason`);
    }
    if (!r.testable && r.loose) {
      throw new ModelError(`spec/${r.source.file}`, `${r.source.pointer}/loose`, `rule ${r.id} is untestable (not checked at all) and loose at once: keep untestable_reason and drop loose`);
    }
  }
  return byId;
}
