import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { anyRatchet, readBaseline } from '../../lint/any-ratchet.js';

const TWO_ANY = 'export const a: any = 1;\nexport function f(x: any): string { return String(x); }\n';

function lint(code: string, baseline: Record<string, number>): string[] {
  const linter = new Linter({ configType: 'flat', cwd: '/repo' });
  const config = [{
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser },
    plugins: { local: { rules: { 'any-ratchet': anyRatchet } } },
    rules: { 'local/any-ratchet': ['error', baseline] as Linter.RuleEntry },
  }];
  return linter.verify(code, config, { filename: '/repo/src/x.ts' }).map((m) => m.message);
}

describe('any ratchet (lint/any-ratchet.js)', () => {
  it('passes a file holding exactly its baseline', () => {
    expect(lint(TWO_ANY, { 'src/x.ts': 2 })).toEqual([]);
  });

  it('fails a file with more `any` than its baseline, or any `any` in a file not listed', () => {
    expect(lint(TWO_ANY, { 'src/x.ts': 1 })).toEqual([expect.stringMatching(/has 2 explicit `any`, lint\/any-baseline.json allows 1/)]);
    expect(lint(TWO_ANY, {})).toHaveLength(2);
  });

  it('fails a file with fewer `any` than its baseline, so the entry is lowered (the count only goes down)', () => {
    expect(lint(TWO_ANY, { 'src/x.ts': 3 })).toEqual([expect.stringMatching(/lower its entry to 2/)]);
  });

  it('keeps the baseline total equal to its entries', async () => {
    const { readFileSync } = await import('node:fs');
    const { BASELINE_FILE } = await import('../../lint/any-ratchet.js');
    const file = JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as { total: number };
    expect(Object.values(readBaseline()).reduce((a, b) => a + b, 0)).toBe(file.total);
  });
});

describe('any count (lint/any-count.js)', () => {
  it('counts what the baseline holds, file by file (the baseline is lowered with every removal)', async () => {
    const { countAny } = await import('../../lint/any-count.js');
    expect(countAny()).toEqual(readBaseline());
  });
});
