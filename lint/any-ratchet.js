// `any` as a ratchet: each file may hold at most the explicit `any` its entry in any-baseline.json
// allows (files not listed: none), and a file holding fewer than its entry fails too, so the entry is
// lowered in the same change and the count can only go down. Tests (*.test.ts, test/) are not counted:
// they may build partial or hostile values on purpose.

import { readFileSync } from 'node:fs';
import path from 'node:path';

export const BASELINE_FILE = new URL('./any-baseline.json', import.meta.url);

export function readBaseline() {
  return JSON.parse(readFileSync(BASELINE_FILE, 'utf8')).files;
}

/** @type {import('eslint').Rule.RuleModule} */
export const anyRatchet = {
  meta: {
    type: 'problem',
    docs: { description: 'explicit `any` only up to the per-file baseline (lint/any-baseline.json), which only goes down' },
    schema: [{ type: 'object', additionalProperties: { type: 'integer', minimum: 0 } }],
    messages: {
      over: '{{file}} has {{count}} explicit `any`, lint/any-baseline.json allows {{allowed}}: type this value (unknown and a narrowing, or the generated type)',
      under: '{{file}} has {{count}} explicit `any`, fewer than the {{allowed}} lint/any-baseline.json allows: lower its entry to {{count}} (the ratchet only goes down)',
    },
  },
  create(context) {
    const baseline = context.options[0] ?? {};
    const file = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    const allowed = baseline[file] ?? 0;
    const found = [];
    return {
      TSAnyKeyword(node) {
        found.push(node);
      },
      'Program:exit'(program) {
        const data = { file, count: String(found.length), allowed: String(allowed) };
        if (found.length > allowed) for (const node of found.slice(allowed)) context.report({ node, messageId: 'over', data });
        else if (found.length < allowed) context.report({ node: program, loc: { line: 1, column: 0 }, messageId: 'under', data });
      },
    };
  },
};
