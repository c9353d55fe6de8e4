// The load plan's JSON Schema: its shape and descriptions are spec/schemas/load-plan.schema.json, its
// knobs' ranges are LOAD_BOUNDS (src/load/options.ts), added here when the schema is compiled, so each
// range is written once (as src/profile/config.ts reads RUN_BOUNDS for the config file).

import { readFileSync } from 'node:fs';
import { compileSchema, schemaPath } from '../schemas/index.ts';
import { LOAD_BOUNDS, LOAD_LIMITS, type LoadKnob } from './options.ts';

/** Plan key -> the knob whose bounds hold it. */
export const PLAN_KNOBS = {
  duration: 'durationSec',
  arrival_rate: 'arrivalRate',
  connections: 'connections',
  max_requests: 'maxRequests',
  timeout_ms: 'timeoutMs',
  drain_ms: 'drainMs',
  seed: 'seed',
  judge_sample: 'judgeSample',
  think_time_ms: 'thinkTimeMs',
} as const satisfies Record<string, LoadKnob>;

type Props = Record<string, Record<string, unknown>>;

function withRanges(file: Record<string, unknown>): Record<string, unknown> {
  // A copy without $id: the file itself may be compiled too (editors, schemaFileValidator) under that id.
  const { $id: _id, ...schema } = structuredClone(file) as { $id?: string; properties: Props };
  const props = schema.properties;
  for (const [key, knob] of Object.entries(PLAN_KNOBS)) props[key] = { ...props[key], minimum: LOAD_BOUNDS[knob].min, maximum: LOAD_BOUNDS[knob].max };
  const stage = (props.stages.items as { properties: Props }).properties;
  stage.duration = { ...stage.duration, exclusiveMinimum: 0, maximum: LOAD_LIMITS.maxDurationSec };
  stage.target = { ...stage.target, minimum: 0, maximum: LOAD_LIMITS.maxRate };
  props.start = { ...props.start, minimum: 0, maximum: LOAD_LIMITS.maxRate };
  return schema;
}

let schema: Record<string, unknown> | undefined;

/** The plan schema as validated: the file's shape with LOAD_BOUNDS' ranges. */
export function loadPlanSchema(): Record<string, unknown> {
  return (schema ??= withRanges(JSON.parse(readFileSync(schemaPath('load-plan.schema.json'), 'utf8')) as Record<string, unknown>));
}

export function loadPlanValidator() {
  return compileSchema(loadPlanSchema());
}
