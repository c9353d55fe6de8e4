// Rewrites the needs table of the vendor-sandbox guide (docs/validate-a-vendor-sandbox.md) from the
// checks' declared needs:
//   npx tsx test/sandbox/update-readme.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { loadModel } from '../../src/model/index.ts';
import { needsFacts, needsTable, replaceNeedsTable } from '../../src/runner/needs-table.ts';
import { loadChecks } from '../../suites/index.ts';

const file = new URL('../../docs/validate-a-vendor-sandbox.md', import.meta.url);
writeFileSync(file, replaceNeedsTable(readFileSync(file, 'utf8'), needsTable(await loadChecks(), needsFacts(await loadModel()))));
