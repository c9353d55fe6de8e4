import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Check } from '../checks/types.ts';
import { loadChecks } from '../../suites/index.ts';
import { loadModel } from '../model/index.ts';
import { needsFacts, needsTable, NEEDS_TABLE_MARKERS, replaceNeedsTable } from './needs-table.ts';

const check = (id: string, needs: Check['needs']): Check => ({ id, title: id, area: 'a', section: '1', rules: [], safe: true, needs, run: async () => undefined });

describe('vendor-sandbox guide needs table', () => {
  it('lists each need with the checks that declare it', () => {
    const t = needsTable([check('b', ['control:advanceClock', 'pci']), check('a', ['control:advanceClock']), check('c', [])]);
    expect(t).toContain('| `control:advanceClock` | control adapter maps `advanceClock` (or `control_url`: our control API has every operation) | 2 | `a`, `b` |');
    expect(t).toContain('| `pci` | `pci_url` | 1 | `b` |');
    expect(t).toContain('| (none) | runs on any target with `base_url` and `clients` | 1 | |');
  });

  it('names operation_auth of each card-tokenization operation whose authentication the spec does not show on the pci row', async () => {
    const facts = needsFacts(await loadModel());
    expect(facts.pciAuthOperations).toContain('tokenizeCard');
    expect(needsTable([check('b', ['pci'])], facts)).toContain('| `pci` | `pci_url`; where the sandbox protects card tokenization, also `operation_auth.tokenizeCard` (its authentication is not shown) | 1 | `b` |');
  });

  it('docs/validate-a-vendor-sandbox.md carries the table generated from the current checks (run `npx tsx test/sandbox/update-readme.ts` when this fails)', async () => {
    const readme = readFileSync(new URL('../../docs/validate-a-vendor-sandbox.md', import.meta.url), 'utf8');
    expect(readme).toContain(NEEDS_TABLE_MARKERS.start);
    expect(replaceNeedsTable(readme, needsTable(await loadChecks(), needsFacts(await loadModel())))).toBe(readme);
  });
});
