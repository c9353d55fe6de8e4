// Rewrites the library-clients table of docs/certify-your-client.md from src/audit/bank/libraries.ts
// (src/audit/bank/bank.test.ts holds the two equal), after a client rule or a library client is added:
//   npx tsx test/recipe/update-library-table.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { libraryTable } from '../../src/audit/bank/libraries.ts';

const file = new URL('../../docs/certify-your-client.md', import.meta.url);
const TABLE = /(<!-- library-clients: [^\n]*-->\n)[\s\S]*?(\n<!-- \/library-clients -->)/;
const doc = readFileSync(file, 'utf8');
if (!TABLE.test(doc)) throw new Error('docs/certify-your-client.md has no library-clients markers');
writeFileSync(file, doc.replace(TABLE, (_, open: string, close: string) => `${open}${libraryTable()}${close}`));
