import { describe, it, expect } from 'vitest';
import { cp, mkdtemp, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { main } from '../index.ts';
import { captureIo } from '../capture.ts';
import { DEFAULT_SPEC_DIR } from '../../model/index.ts';

const capture = () => captureIo();

describe('baas-conform rules', () => {
  it('prints the catalogue as JSON with every rule id and its section', async () => {
    const c = capture();
    const code = await main(['rules', '--json'], c.io);
    expect(code).toBe(0);
    const parsed = JSON.parse(c.out());
    const ids = parsed.rules.map((r: any) => r.id);
    expect(ids).toContain('ERR-TOKEN-CLIENT-ID-MISSING');
    expect(ids).toContain('STATE-SEPA-WRONG-PATH');
    expect(ids).toContain('ALIAS-USER-READ-WALLET-ADDRESS');
    for (const r of parsed.rules) expect(r.section).toMatch(/^\d/);
  });

  it('gives every rule a mutants field: the faulty variants breaking it, pending ones, or why none can exist', async () => {
    const c = capture();
    expect(await main(['rules', '--json'], c.io)).toBe(0);
    const rules = JSON.parse(c.out()).rules as any[];
    const grant = rules.find((r) => r.id === 'ERR-TOKEN-GRANT-TYPE-INVALID');
    expect(grant.mutants.variants).toContain('token.grant-type.not-checked');
    // TLS had only a reason until the reference could serve HTTPS (the transport area).
    expect(rules.find((r) => r.id === 'LIMIT-TRANSPORT-TLS').mutants).toMatchObject({ variants: ['transport.tls-accepts-1.1'] });
    expect(rules.find((r) => r.id === 'LIMIT-TRANSPORT-TLS').mutants.reason).toBeUndefined();
    for (const r of rules.filter((x) => x.testable)) {
      expect(r.mutants.variants.length + r.mutants.pending.length > 0 || typeof r.mutants.reason === 'string', r.id).toBe(true);
    }
  });

  it('exits 2 naming the file and pointer when the model is malformed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'baas-spec-'));
    try {
      await cp(DEFAULT_SPEC_DIR, dir, { recursive: true });
      await writeFile(path.join(dir, 'rules/general.yaml'), 'rules:\n  - { id: bad id, kind: endpoint, section: "4", summary: x, operations: [] }\n');
      const c = capture();
      const code = await main(['rules', '--spec', dir], c.io);
      expect(code).toBe(2);
      expect(c.err()).toMatch(/spec\/rules\/general\.yaml(:\d+)? at \/rules\/0\/id: must match pattern/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
