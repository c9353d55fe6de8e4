// ESLint flat config: a small, strict set of correctness rules, type-aware where the rule needs types
// (floating promises), and `any` as a ratchet (lint/any-ratchet.js). `npm run lint`; run by `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { anyRatchet, readBaseline } from './lint/any-ratchet.js';

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'src/generated/**', 'baas-conform-report/**', '**/*.ts.txt'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts', 'test/*/*.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Promises: a forgotten await loses errors and ordering.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      // Dead code: unused variables and imports (a leading _ marks an intentionally unused one).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      '@typescript-eslint/no-unused-expressions': 'error',
      // Correctness.
      'no-fallthrough': 'error',
      'no-self-compare': 'error',
      'no-unreachable': 'error',
      'no-dupe-keys': 'error',
      'no-duplicate-case': 'error',
      'no-cond-assign': 'error',
      'no-constant-binary-expression': 'error',
      'no-unsafe-finally': 'error',
      'no-debugger': 'error',
      'no-var': 'error',
      'prefer-const': 'error',
    },
  },
  {
    // Explicit `any` outside tests only up to the per-file baseline, which only goes down.
    files: ['**/*.ts'],
    ignores: ['**/*.test.ts', 'test/**'],
    plugins: { local: { rules: { 'any-ratchet': anyRatchet } } },
    rules: { 'local/any-ratchet': ['error', readBaseline()] },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...js.configs.recommended,
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', Buffer: 'readonly' } },
  },
);
