// `run` that judged nothing: every selected check skipped (a target without the test-control API, and
// checks that need it), or none selected (an empty shard). Exit 4 and INCONCLUSIVE in the console,
// results.json (valid against its schema), junit.xml and report.html; --strict keeps it 4, and the
// same checks against a target that has the control API judge something and exit 0.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../baseline/results-file.ts';
import { startReference, type ReferenceServer } from '../../reference/index.ts';
import { captureIo } from '../capture.ts';
import { main } from '../index.ts';

const CHECKS = ['aliases.3ds.owner', 'aliases.withdrawal.account-address'];

async function run(profile: object, extra: string[], checks = CHECKS) {
  const cwd = await mkdtemp(join(tmpdir(), 'bc-run-'));
  await writeFile(join(cwd, 'p.json'), JSON.stringify(profile));
  const c = captureIo({ env: {}, cwd });
  const code = await main(['run', '--profile', 'p.json', '--report-dir', 'r', ...checks.flatMap((id) => ['--check', id]), ...extra], c.io);
  return { code, out: c.out(), err: c.err(), dir: join(cwd, 'r') };
}

describe('run: judged nothing', () => {
  let bare: ReferenceServer;
  let full: ReferenceServer;
  beforeAll(async () => {
    [bare, full] = await Promise.all([startReference({ control: false }), startReference()]);
  });
  afterAll(async () => {
    await Promise.all([bare.close(), full.close()]);
  });

  it('every selected check skipped: exit 4, INCONCLUSIVE in every report; --strict keeps 4', async () => {
    expect(bare.profile.control_url).toBeUndefined();
    const r = await run(bare.profile, []);
    expect(r.code).toBe(4);
    expect(r.out).toMatch(/Exit 4: INCONCLUSIVE: the run judged nothing because all 2 selected checks skipped \(/);
    const doc = await loadResults(join(r.dir, 'results.json'));
    expect(doc.checks.map((c) => c.verdict)).toEqual(['skip', 'skip']);
    const json = JSON.parse(await readFile(join(r.dir, 'results.json'), 'utf8'));
    expect(json.exit).toMatchObject({ code: 4, verdict: 'inconclusive', reasons: [expect.stringMatching(/^INCONCLUSIVE: the run judged nothing because/)] });
    const junit = await readFile(join(r.dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="baas-conform" tests="3" failures="0" errors="1"/);
    expect(junit).toMatch(/<testcase classname="run" name="run.verdict"[^>]*>\s*<error message="INCONCLUSIVE: the run judged nothing because all 2 selected checks skipped/);
    expect(await readFile(join(r.dir, 'report.html'), 'utf8')).toMatch(/data-verdict="inconclusive">Exit code 4 \(<b>inconclusive<\/b>\): INCONCLUSIVE: the run judged nothing/);
    const strict = await run(bare.profile, ['--strict']);
    expect(strict.code).toBe(4);
  }, 60_000);

  it('the same checks against a target with the control API judge something: exit 0, no INCONCLUSIVE', async () => {
    const r = await run(full.profile, ['--strict']);
    expect(r.code).toBe(0);
    expect(r.out).not.toMatch(/INCONCLUSIVE/);
    expect(await readFile(join(r.dir, 'junit.xml'), 'utf8')).toMatch(/errors="0"/);
  }, 60_000);

  it('a shard holding none of the selected checks judged nothing: exit 4 naming the selection; --check matching nothing is a usage error', async () => {
    // One check over two shards: exactly one shard holds it; the other selected nothing.
    const byShard = new Map<string, { code: number; out: string }>();
    for (const shard of ['1/2', '2/2']) byShard.set(shard, await run(full.profile, ['--shard', shard], ['aliases.3ds.owner']));
    expect([...byShard.values()].map((r) => r.code).sort()).toEqual([0, 4]);
    const [emptyShard, empty] = [...byShard].find(([, r]) => r.code === 4)!;
    expect(empty.out).toContain(`Exit 4: INCONCLUSIVE: the run judged nothing because no check was selected (shard ${emptyShard}, --check aliases.3ds.owner)`);
    const none = await run(full.profile, ['--check', 'no.such.check'], []);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/matches no check/);
  }, 60_000);
});
