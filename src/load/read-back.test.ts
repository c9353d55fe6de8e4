// A read-back says "absent" only where the answer says not found: a 404 or 410, or a 400 carrying the
// section 7 not-found reason (read from the model). Another 400 refuses the reader, not the write.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import { resolveProfile } from '../profile/index.ts';
import { readBack } from './read-back.ts';
import { openSetup } from './setup.ts';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const [status, reason] = req.url === '/invalid' ? [400, 'ErrorInvalidField'] : req.url === '/missing' ? [400, 'ErrorNotFound'] : [404, undefined];
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reason ? { error_reason: reason, error_description: 'x', error_category: { category: 'CategoryValidationFailure', http_status_code: 400 } } : { detail: 'Not Found' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

describe('readBack', () => {
  it('a 400 other than the not-found row could not read (never lost); the not-found row and a 404 are absent', async () => {
    const model = await loadModel();
    const s = openSetup({ profile: resolveProfile({ base_url: base, clients: [{ client_id: 'c', client_secret: 's' }] }, { env: {} }), timeoutMs: 5_000, model });
    expect(await readBack(s, 'GET', '/invalid', {})).toMatchObject({ kind: 'unreadable', why: expect.stringContaining('ErrorInvalidField') });
    expect(await readBack(s, 'GET', '/missing', {})).toMatchObject({ kind: 'absent', status: 400, reason: 'ErrorNotFound' });
    expect(await readBack(s, 'GET', '/gone', {})).toMatchObject({ kind: 'absent', status: 404 });
    await s.session.close();
  });
});
