// The "done when": certify on the embedded reference writes a package that verify accepts,
// and a one-byte change to any file in it fails naming that file (through the CLI, exit codes included).
import { cp, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureIo } from '../cli/capture.ts';
import { main } from '../cli/index.ts';

async function cli(argv: string[], cwd: string) {
  const c = captureIo({ cwd });
  const code = await main(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

describe('certify on the embedded reference', () => {
  it('writes a package verify accepts; one changed byte in any file fails naming it', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'bc-certref-'));
    const pkg = path.join(root, 'cert');
    const made = await cli(['certify', '--out', pkg, '--seed', '21'], root);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toContain(`Certification package written to ${pkg}`);
    const files = (await readdir(pkg)).sort();
    expect(files).toEqual(['certificate.json', 'junit.xml', 'manifest.json', 'manifest.jws', 'profile.json', 'public-key.jwk.json', 'report.html', 'results.json', 'transcript.har']);
    const cert = JSON.parse(await readFile(path.join(pkg, 'certificate.json'), 'utf8'));
    expect(cert).toMatchObject({ seed: 21, tool: { name: 'baas-conform' }, summary: { failed: 0, blocked: 0 } });
    const ok = await cli(['verify', pkg], root);
    expect(ok.code, ok.err).toBe(0);
    for (const file of files) {
      const copy = path.join(root, `flip-${file}`);
      await cp(pkg, copy, { recursive: true });
      const bytes = await readFile(path.join(copy, file));
      const i = Math.floor(bytes.length / 2);
      bytes[i] = bytes[i] === 0x30 ? 0x31 : 0x30;
      await writeFile(path.join(copy, file), bytes);
      const r = await cli(['verify', copy], root);
      expect(r.code, file).toBe(1);
      expect(r.err, file).toMatch(new RegExp(`does not verify: ${file.replace(/\./g, '\\.')}: `));
    }
  });
});
