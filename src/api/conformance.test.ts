import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckFailure } from '../checks/signals.ts';
import type { Check } from '../checks/types.ts';
import { TargetUnreachableError } from '../errors/index.ts';
import type { RunEvent } from '../events/index.ts';
import { startReference } from '../reference/index.ts';
import { runConformance } from './index.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

describe('runConformance', () => {
  it('runs selected checks against the embedded reference and streams events in order', async () => {
    const events: RunEvent['type'][] = [];
    let embedded: boolean | undefined;
    const r = await runConformance({ checks: ['errors.token.*'], seed: 7, onEvent: (e) => void events.push(e.type), onTarget: (t) => (embedded = t.embedded) });
    expect(embedded).toBe(true);
    expect(r.target.embedded).toBe(true);
    expect(r.seed).toBe(7);
    expect(r.results.length).toBeGreaterThan(1);
    expect(r.results.every((c) => c.checkId.startsWith('errors.token.'))).toBe(true);
    expect(r.summary.failed).toBe(0);
    expect(r.exitCode).toBe(0);
    expect(events[0]).toBe('run-started');
    expect(events.at(-1)).toBe('run-finished');
    expect(events.filter((t) => t === 'check-started')).toHaveLength(r.results.length);
    expect(events.filter((t) => t === 'check-finished')).toHaveLength(r.results.length);
  });

  it('reports a failing check as exit code 1 with the failure, through reporters and onEvent alike', async () => {
    const reference = await startReference();
    try {
      const failing: Check = {
        id: 'custom.always-fails',
        title: 'a check that fails',
        area: 'custom',
        section: '7',
        rules: [],
        safe: true,
        run: async () => {
          throw new CheckFailure('the target said no');
        },
      };
      const seen: string[] = [];
      const r = await runConformance({
        profile: reference.profile,
        checkList: [failing],
        reporters: [{ onEvent: (e) => void (e.type === 'check-finished' && seen.push(`reporter:${e.result.verdict}`)) }],
        onEvent: (e) => void (e.type === 'check-finished' && seen.push(`callback:${e.result.verdict}`)),
      });
      expect(r.target.embedded).toBe(false);
      expect(r.exitCode).toBe(1);
      expect(r.summary.failed).toBe(1);
      expect(r.results[0].failure?.message).toContain('the target said no');
      expect(seen).toEqual(['reporter:fail', 'callback:fail']);
    } finally {
      await reference.close();
    }
  });

  it('rejects a malformed shard with a ConfigError before contacting anything', async () => {
    await expect(runConformance({ target: 'http://127.0.0.1:1', shard: '3/2' })).rejects.toThrow(/shard must look like i\/n/);
  });

  it('masks the profile secret in errors it throws (here a 404 message quoting a base URL that holds it)', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/top-secret-value`;
    const err = await runConformance({ target: url, env: { BAAS_CLIENT_ID: 'id', BAAS_CLIENT_SECRET: 'top-secret-value' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TargetUnreachableError);
    expect((err as Error).message).toContain('returned 404');
    expect((err as Error).message).not.toContain('top-secret-value');
  });
});
