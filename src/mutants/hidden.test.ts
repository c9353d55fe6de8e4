// hiddenBy: an uncaught faulty variant is hidden by a named missing service only when every check of
// its rule skipped, or a check of its rule could not judge an assertion (ctx.couldNotJudge); when the
// checks of its rule all ran and judged everything, nothing hid it (silently passed).

import { expect, it } from 'vitest';
import { hiddenBy } from './selftest.ts';

const checks = [
  { id: 'a.one', rules: ['R-1'] },
  { id: 'a.two', rules: ['R-1', 'R-2'] },
  { id: 'b.other', rules: ['R-3'] },
] as any[];
const run = (o: Partial<Parameters<typeof hiddenBy>[0]>) => ({ breaks: ['R-1'], skippedChecks: [], unjudgedChecks: [], failing: [], ...o });

it('names the skip reasons when every check of the rule skipped', () => {
  const skippedChecks = [{ checkId: 'a.one', reason: 'needs control operation advanceClock' }, { checkId: 'a.two', reason: 'needs to forge S2S tokens' }];
  expect(hiddenBy(run({ skippedChecks }), checks)).toEqual(['needs control operation advanceClock', 'needs to forge S2S tokens']);
});

it('names the service a passing check could not judge, with the skips of the others', () => {
  expect(hiddenBy(run({ unjudgedChecks: [{ checkId: 'a.two', missing: ['a webhook receiver'] }] }), checks)).toEqual(['a webhook receiver']);
  expect(hiddenBy(run({ skippedChecks: [{ checkId: 'a.one', reason: 'needs pci' }], unjudgedChecks: [{ checkId: 'a.two', missing: ['a webhook receiver'] }] }), checks)).toEqual(['a webhook receiver', 'needs pci']);
});

it('is undefined when the checks of the rule ran and judged everything, or the rule has no check', () => {
  expect(hiddenBy(run({}), checks)).toBeUndefined();
  expect(hiddenBy(run({ skippedChecks: [{ checkId: 'a.one', reason: 'needs pci' }] }), checks)).toBeUndefined();
  // Could-not-judge on another rule's check says nothing about this rule.
  expect(hiddenBy(run({ unjudgedChecks: [{ checkId: 'b.other', missing: ['x'] }] }), checks)).toBeUndefined();
  expect(hiddenBy(run({ breaks: ['R-9'] }), checks)).toBeUndefined();
});

it('judges by the variant\'s reach when it gives one: those checks all skipped hide it, though another check of the rule ran', () => {
  const skippedChecks = [{ checkId: 'a.one', reason: 'needs control operation advanceClock' }];
  // Without reach, a.two ran and judged everything: silently passed.
  expect(hiddenBy(run({ skippedChecks }), checks)).toBeUndefined();
  expect(hiddenBy(run({ skippedChecks }), checks, ['a.one'])).toEqual(['needs control operation advanceClock']);
  // The reaching check ran: nothing hid the fault.
  expect(hiddenBy(run({}), checks, ['a.one'])).toBeUndefined();
});
