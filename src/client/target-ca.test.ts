// profile.ca_file: the target's private CA is trusted on the target's own origins only. Two HTTPS
// servers on loopback hold certificates from one CA; only the one the profile names is reachable, a
// session without ca_file reaches neither, and a bad ca_file is a ConfigError naming the file.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { generateTlsIdentity } from '../reference/index.ts';
import { HttpSession, isTransportError } from './index.ts';

let dir: string;
let caFile: string;
const servers: Server[] = [];
const origins: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'target-ca-'));
  const id = await generateTlsIdentity();
  caFile = join(dir, 'ca.pem');
  await writeFile(caFile, id.caPem);
  for (let i = 0; i < 2; i++) {
    const s = createServer({ key: id.keyPem, cert: id.certPem }, (_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    servers.push(s);
    origins.push(`https://127.0.0.1:${(s.address() as AddressInfo).port}`);
  }
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  await rm(dir, { recursive: true, force: true });
});

const session = (extra: Record<string, unknown>) => new HttpSession({ timeoutBudgetMs: 10_000, profile: resolveProfile({ base_url: origins[0], clients: [{ client_id: 'c', client_secret: 's-123456' }], ...extra }, { env: {} }) });

async function outcome(s: HttpSession, url: string): Promise<string> {
  try {
    return String((await s.client('t').send({ path: url })).status);
  } catch (err) {
    return isTransportError(err) ? err.code : String(err);
  }
}

it('trusts profile.ca_file on the target origin only, and nothing without it', async () => {
  const trusted = session({ ca_file: caFile });
  const plain = session({});
  try {
    expect(await outcome(trusted, `${origins[0]}/`)).toBe('200');
    // Same CA, same certificate, but an origin the profile does not name: not trusted.
    expect(await outcome(trusted, `${origins[1]}/`)).toBe('TLS');
    expect(await outcome(plain, `${origins[0]}/`)).toBe('TLS');
  } finally {
    await trusted.close();
    await plain.close();
  }
});

it('refuses a ca_file that is missing or holds no certificate, naming it', async () => {
  expect(() => session({ ca_file: join(dir, 'absent.pem') })).toThrow(ConfigError);
  expect(() => session({ ca_file: join(dir, 'absent.pem') })).toThrow(/profile\.ca_file .*absent\.pem: ENOENT/);
  const junk = join(dir, 'junk.pem');
  await writeFile(junk, 'not a certificate');
  expect(() => session({ ca_file: junk })).toThrow(/profile\.ca_file .*junk\.pem: no PEM certificate/);
});
