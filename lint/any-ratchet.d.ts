import type { Rule } from 'eslint';

export const BASELINE_FILE: URL;
/** Per-file allowed explicit `any` (lint/any-baseline.json `files`). */
export function readBaseline(): Record<string, number>;
export const anyRatchet: Rule.RuleModule;
