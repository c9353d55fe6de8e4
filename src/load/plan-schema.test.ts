// The plan schema's knob ranges are LOAD_BOUNDS': the file writes none, and the validator a plan meets
// accepts each knob at its bounds and refuses it just outside them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemaPath } from '../schemas/index.ts';
import { LOAD_BOUNDS } from './options.ts';
import { loadPlanValidator, PLAN_KNOBS } from './plan-schema.ts';

const plan = (extra: Record<string, unknown>) => ({ scenarios: [{ name: 'health' }], ...extra });

describe('load plan schema ranges', () => {
  it('spec/schemas/load-plan.schema.json writes no range for a run knob (LOAD_BOUNDS is the one place)', () => {
    const props = (JSON.parse(readFileSync(schemaPath('load-plan.schema.json'), 'utf8')) as { properties: Record<string, Record<string, unknown>> }).properties;
    for (const key of Object.keys(PLAN_KNOBS)) {
      expect(props[key], key).toBeDefined();
      expect(Object.keys(props[key]).filter((k) => /^(exclusiveM|m)(in|ax)imum$/.test(k)), key).toEqual([]);
    }
  });

  it('holds each knob to the range LOAD_BOUNDS gives', () => {
    const valid = loadPlanValidator();
    for (const [key, knob] of Object.entries(PLAN_KNOBS)) {
      const { min, max } = LOAD_BOUNDS[knob];
      expect(valid(plan({ [key]: min }))).toBe(true);
      expect(valid(plan({ [key]: max }))).toBe(true);
      expect(valid(plan({ [key]: max + 1 })), `${key} above ${max}`).toBe(false);
      expect(valid(plan({ [key]: min - 1 })), `${key} below ${min}`).toBe(false);
    }
  });
});
