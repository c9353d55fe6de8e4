// Load plans in YAML (`baas-conform load --plan plan.yaml`), validated by spec/schemas/load-plan.schema.json
// with the knobs' ranges from LOAD_BOUNDS (plan-schema.ts).
// A bad plan is refused before any traffic, naming the file, the JSON pointer and the problem.

import type { ErrorObject } from 'ajv';
import { ConfigError, describeSchemaProblem, PlanError } from '../errors/index.ts';
import { readInputFile } from '../input/index.ts';
import type { Model } from '../model/index.ts';
import { loadPlanValidator } from './plan-schema.ts';
import type { LoadOptions } from './run.ts';
import { scenarioById, SCENARIOS } from './scenarios.ts';
import type { ThresholdRule, Thresholds } from './types.ts';
import { WINDOW_METRICS } from './windows.ts';

export interface LoadPlan {
  name?: string;
  scenarios: { name: string; weight?: number }[];
  model?: 'open' | 'closed';
  arrival_rate?: number;
  connections?: number;
  duration?: number;
  start?: number;
  stages?: { duration: number; target: number }[];
  max_requests?: number;
  timeout_ms?: number;
  drain_ms?: number;
  thresholds?: { run?: PlanRule[]; operations?: Record<string, PlanRule[]>; rules?: Record<string, PlanRule[]> };
  /** Open model: arrival pattern (default uniform) and seed. */
  arrivals?: 'uniform' | 'poisson';
  seed?: number;
  /** Share of answers judged (default 1; 0: off). */
  judge_sample?: number;
  /** journey: think time between steps (ms). */
  think_time_ms?: number;
}

/** A threshold: the expression, or with k6's abortOnFail and delayAbortEval (grace, s). */
export type PlanRule = string | { threshold: string; abort_on_fail?: boolean; grace?: number };

export { PlanError };

async function validate(plan: unknown): Promise<ErrorObject | undefined> {
  const validator = loadPlanValidator();
  return validator(plan) ? undefined : validator.errors![0];
}

function describe(e: ErrorObject): string {
  if (e.keyword === 'pattern' && /thresholds/.test(e.instancePath)) return 'not a threshold: write `metric op value [over Ns]`, e.g. "p99 < 500", "p99 < 500 over 10s" or "conformance_errors < 1" (metrics: pNN, max, mean, error_rate, rps, timeouts, conformance_errors)';
  if (e.keyword === 'not') return 'give either stages or duration, not both';
  return describeSchemaProblem(e);
}

/** `metric op value [over Ns]`, in a scope: the run, an operation, a rule id (conformance_errors), or both. */
export function parseRule(expr: string, operation?: string, rule?: string): ThresholdRule {
  const m = /^\s*([a-z_0-9.]+)\s*(<=|>=|<|>)\s*([0-9.]+)\s*(?:over\s+([0-9.]+)\s*s)?\s*$/.exec(expr);
  if (!m) throw new ConfigError(`load: threshold ${JSON.stringify(expr)} is not "metric op value" or "metric op value over Ns"`);
  const window = m[4] !== undefined ? Number(m[4]) : undefined;
  if (window !== undefined) {
    if (!(window >= 1 && window <= 300)) throw new ConfigError(`load: threshold ${JSON.stringify(expr)}: the window must be 1..300 s`);
    if (!WINDOW_METRICS.test(m[1])) throw new ConfigError(`load: threshold ${JSON.stringify(expr)}: ${m[1]} has no window (windows measure pNN, max, mean, error_rate, rps, timeouts)`);
    if (operation || rule) throw new ConfigError(`load: threshold ${JSON.stringify(expr)}: windowed thresholds apply to the whole run, not to one operation or rule`);
  }
  if (rule && m[1] !== 'conformance_errors') throw new ConfigError(`load: threshold ${JSON.stringify(expr)} for rule ${rule}: a rule scope measures conformance_errors only`);
  return { expr: expr.trim(), metric: m[1], op: m[2] as ThresholdRule['op'], value: Number(m[3]), ...(operation ? { operation } : {}), ...(rule ? { rule } : {}), ...(window !== undefined ? { window_s: window } : {}) };
}

function planRule(r: PlanRule, operation?: string, rule?: string): ThresholdRule {
  if (typeof r === 'string') return parseRule(r, operation, rule);
  return { ...parseRule(r.threshold, operation, rule), ...(r.abort_on_fail ? { abort_on_fail: true, grace_s: r.grace ?? 0 } : {}) };
}

/**
 * `--threshold "[scope:] expr"`: scope is an operationId, a rule id of the model (upper case), or
 * both separated by a space, e.g. `getUserV1 ENDPOINT-RESPONSE-SCHEMA: conformance_errors < 1`.
 */
export function parseThresholdFlag(text: string, model: Model): ThresholdRule {
  const m = /^\s*([A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z][A-Za-z0-9-]*)?)\s*:(.*)$/.exec(text);
  if (!m) return parseRule(text);
  let operation: string | undefined;
  let rule: string | undefined;
  for (const word of m[1].split(/\s+/)) {
    if (model.isRuleId(word)) rule = word;
    else if (model.isOperationId(word)) operation = word;
    else throw new ConfigError(`load: --threshold ${JSON.stringify(text)}: "${word}" is neither an operationId of spec/openapi.yaml nor a rule id of spec/rules`);
  }
  return parseRule(m[2], operation, rule);
}

export async function readPlan(file: string, displayName = file): Promise<LoadPlan> {
  const doc = await readInputFile(file, { what: 'load plan', format: 'yaml', displayName, error: (f, pointer, problem, line) => new PlanError(f, pointer ?? '', problem, line) });
  const e = await validate(doc.value);
  if (e) throw doc.problem(e.instancePath, describe(e));
  return doc.value as LoadPlan;
}

/** Checks the plan against the scenarios and the model, and turns it into runLoad options. */
export function planOptions(plan: LoadPlan, model: Model, file: string): Omit<LoadOptions, 'profile'> {
  plan.scenarios.forEach((s, i) => {
    if (!scenarioById(s.name)) throw new PlanError(file, `/scenarios/${i}/name`, `unknown scenario "${s.name}"; one of ${SCENARIOS.map((x) => x.id).join(', ')}`);
  });
  const at = <T>(pointer: string, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      throw err instanceof PlanError || !(err instanceof ConfigError) ? err : new PlanError(file, pointer, err.message.replace(/^load: /, ''));
    }
  };
  const rules: ThresholdRule[] = (plan.thresholds?.run ?? []).map((x, i) => at(`/thresholds/run/${i}`, () => planRule(x)));
  for (const [op, list] of Object.entries(plan.thresholds?.operations ?? {})) {
    if (!model.isOperationId(op)) throw new PlanError(file, `/thresholds/operations/${op}`, `"${op}" is not an operationId of spec/openapi.yaml`);
    rules.push(...list.map((x, i) => at(`/thresholds/operations/${op}/${i}`, () => planRule(x, op))));
  }
  for (const [id, list] of Object.entries(plan.thresholds?.rules ?? {})) {
    if (!model.isRuleId(id)) throw new PlanError(file, `/thresholds/rules/${id}`, `"${id}" is not a rule id of spec/rules`);
    rules.push(...list.map((x, i) => at(`/thresholds/rules/${id}/${i}`, () => planRule(x, undefined, id))));
  }
  const stages = plan.stages?.map((s) => ({ duration_s: s.duration, target: s.target }));
  const model_ = plan.model ?? (plan.arrival_rate !== undefined ? 'open' : plan.connections !== undefined && !stages ? 'closed' : stages ? 'open' : undefined);
  if (model_ === 'closed' && plan.arrival_rate !== undefined) throw new PlanError(file, '/arrival_rate', 'the closed model has no arrival rate; use connections or model: open');
  if (!stages && plan.duration === undefined) throw new PlanError(file, '', 'give duration (with arrival_rate or connections) or stages');
  if (model_ === 'closed' && stages?.some((s) => !Number.isInteger(s.target))) throw new PlanError(file, '/stages', 'closed-model stage targets are connections: integers');
  const thresholds: Thresholds = rules.length ? { rules } : {};
  return {
    scenario: plan.scenarios.map((s) => ({ id: s.name, weight: s.weight ?? 1 })),
    ...(model_ ? { loadModel: model_ } : {}),
    ...(plan.arrival_rate !== undefined ? { arrivalRate: plan.arrival_rate } : {}),
    ...(plan.connections !== undefined ? { connections: plan.connections } : {}),
    ...(plan.duration !== undefined ? { durationSec: plan.duration } : {}),
    ...(stages ? { stages, start: plan.start ?? 0 } : {}),
    ...(plan.max_requests !== undefined ? { maxRequests: plan.max_requests } : {}),
    ...(plan.timeout_ms !== undefined ? { timeoutMs: plan.timeout_ms } : {}),
    ...(plan.drain_ms !== undefined ? { drainMs: plan.drain_ms } : {}),
    ...(plan.arrivals !== undefined ? { arrivals: plan.arrivals } : {}),
    ...(plan.seed !== undefined ? { seed: plan.seed } : {}),
    ...(plan.judge_sample !== undefined ? { judgeSample: plan.judge_sample } : {}),
    ...(plan.think_time_ms !== undefined ? { thinkTimeMs: plan.think_time_ms } : {}),
    thresholds,
    model,
  };
}
