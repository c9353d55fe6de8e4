// "Only the model holds them": no hand-written module of the areas listed below restates an operation
// path, a webhook path, a section 7 error message or a deprecated-alias pair that spec/ holds. Each
// must be read from the model (model.operation(id).path, model.webhookPath(id), model.errorRule(id),
// an alias rule by id), so a rename in spec/ flows through `npm run generate` and tsc. Tests
// (*.test.ts) may pin spec values as expectations and are not scanned (scan.ts).

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/model/index.ts';
import { factsOf, ROOT, sourceFiles, violations } from './scan.ts';

/** Areas proven clean; the others join once their owners report them clean (COORD.log). */
const SCANNED = ['src/reference', 'src/load', 'src/mutants', 'src/audit', 'examples/clients'];

describe('only the model holds spec facts', () => {
  it('finds every kind of fact in a module that restates them (the scan can fail)', async () => {
    const model = await loadModel();
    const facts = factsOf(model);
    const tmp = path.join(ROOT, 'test/architecture/fixtures/restates.ts.txt');
    const found = violations([tmp], facts).map((v) => v.split(': ')[1].split(' ').slice(0, 2).join(' '));
    expect(new Set(found)).toEqual(new Set(['operation path', 'webhook path', 'error message', 'alias pair']));
  });

  it.each(SCANNED)('%s restates no operation path, webhook path, error message or alias pair', async (area) => {
    const model = await loadModel();
    expect(violations(sourceFiles(path.join(ROOT, area)), factsOf(model))).toEqual([]);
  });
});
