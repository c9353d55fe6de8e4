// The client guide's partner example (docs/certify-your-client.md) is the file that runs in `npm test`,
// with the package import.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeBlock } from '../../test/package/readme.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('docs/certify-your-client.md', () => {
  it('shows examples/clients/audit.example.test.ts verbatim (package import instead of the repo path)', async () => {
    const readme = await readFile(path.join(root, 'docs/certify-your-client.md'), 'utf8');
    const file = await readFile(path.join(root, 'examples/clients/audit.example.test.ts'), 'utf8');
    expect(readmeBlock(readme, 'audit-vitest-example')).toBe(file.replace("'../../src/index.ts'", "'baas-conform'"));
  });

  it('names the two commands a partner types', async () => {
    const block = readmeBlock(await readFile(path.join(root, 'docs/certify-your-client.md'), 'utf8'), 'audit-commands');
    expect(block).toMatch(/npx baas-conform audit .*--profile-out audit-profile\.json/);
    expect(block).toMatch(/examples\/clients\/sample-client\.ts --profile audit-profile\.json/);
  });
});
