// Hand-written checks that are not one-per-rule: the model-based (fast-check command) tests of the
// section 3 state machines, which each cover several rules at once.

import type { Check } from '../../src/checks/types.ts';
import { stateModelChecks } from './state-models.ts';

export const extraChecks: Check[] = [...stateModelChecks];
