// "Only the model holds them": no hand-written module restates an operation path (quoted, in a
// template, or as `METHOD /path` in prose), a webhook path, a section 7 error message or a
// deprecated-alias pair that spec/ holds. Each is read from the model (opLabel / operationLabel,
// model.webhookPath(id), model.errorRule(id), an alias rule by id), so a rename in spec/ flows
// through `npm run generate` and tsc. Tests (*.test.ts) may pin spec values as expectations and
// are not scanned; generated folders render the model by design (scan.ts GENERATED).

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/model/index.ts';
import { factsOf, handWrittenAreas, ROOT, sourceFiles, violations } from './scan.ts';

const fixture = (name: string) => path.join(ROOT, 'test/architecture/fixtures', name);
const kinds = (found: string[]) => new Set(found.map((v) => v.split(': ')[1].split(' ').slice(0, 2).join(' ')));

describe('only the model holds spec facts', () => {
  it('finds every kind of fact in a module that restates them, in code and in prose (the scan can fail)', async () => {
    const facts = factsOf(await loadModel());
    const found = violations([fixture('restates.ts.txt')], facts);
    expect(kinds(found)).toEqual(new Set(['operation path', 'webhook path', 'error message', 'alias pair']));
    // One finding per restating line of the fixture, at its own line number (comments are blanked, not removed).
    expect(found.map((v) => Number(v.split(':')[1]))).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 17]);
  });

  it('flags nothing in a module that reads every fact from the model', async () => {
    expect(violations([fixture('clean.ts.txt')], factsOf(await loadModel()))).toEqual([]);
  });

  it('covers every hand-written folder', () => {
    const areas = handWrittenAreas();
    for (const a of ['suites/kit', 'suites/drivers', 'suites/models', 'src/runner', 'src/client', 'src/control', 'src/report', 'src/reference', 'src/load', 'src/mutants', 'src/audit', 'src/cli', 'generators', 'examples']) {
      expect(areas).toContain(a);
    }
    expect(areas.some((a) => a.endsWith('/generated'))).toBe(false);
  });

  it('finds no restatement in any hand-written folder (`npx tsx test/architecture/scan.ts` lists them)', async () => {
    const facts = factsOf(await loadModel());
    const found = handWrittenAreas().flatMap((a) => violations(sourceFiles(path.join(ROOT, a)), facts));
    expect(found, 'restatements of spec facts: read them from the model (operationLabel, op(id) in a variant description, {op:ID} in a driver title)').toEqual([]);
  });
});
