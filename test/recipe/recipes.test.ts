// Follows the three recipes of docs/extend-the-toolkit.md ("adding an error row", "adding a load
// response contract", "adding a client rule") on one scratch copy of the repository, so they share one
// copy, one generate and one typecheck (the edits are in error-row.ts, load-contract.ts and
// client-rule.ts). The model steps alone leave the generator naming the missing driver and tsc naming
// exactly the files the remaining steps edit; all steps together typecheck, and each recipe's new
// rule or contract is judged, passes on a conforming target or client, fails on the one breaking it
// and shows in the reports. No pinned count or list to edit elsewhere: the tests near each change
// pass as they are.

import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFaultyMode, addJudge, addLibraryExpectation, addRule, MODE, RULE_ID } from './client-rule.ts';
import { addDriver, addReferenceStep, addRow, addVariant, CHECK_ID, ROW_ID, VARIANT_ID } from './error-row.ts';
import { addBreakingTarget, addContract, CONTRACT_ID, listOnScenario } from './load-contract.ts';
import { log, run, scratchCopy, tscErrorFiles, typechecker, type Ran } from './scratch.ts';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A TypeScript file of the copy run as `npx tsx <file>` runs it, in one process where npx started three (npx, tsx's CLI, node): 0.35 s less CPU each. */
const tsx = (dir: string, args: string[], timeoutMs?: number) => run(dir, process.execPath, ['--import', 'tsx', ...args], timeoutMs);

/** `baas-conform audit` with reports while the sample client runs in `mode` against it, ended by SIGTERM once the client is done. */
async function auditWithSampleClient(dir: string, name: string, mode: string): Promise<{ audit: Ran; client: Ran; out: string }> {
  const out = path.join(dir, `audit-${name}`);
  const profile = path.join(dir, `audit-${name}.json`);
  const child = spawn('node', ['bin/baas-conform.js', 'audit', '--port', '0', '--pci-port', '0', '--duration', '120', '--profile-out', profile, '--report-dir', out], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  let printed: () => void = () => {};
  const listening = new Promise<void>((resolve) => (printed = resolve));
  let stdout = '';
  child.stdout.on('data', (b: Buffer) => {
    text += b.toString();
    stdout += b.toString();
    if (stdout.includes('\n')) printed();
  });
  child.stderr.on('data', (b: Buffer) => (text += b.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  let timer: NodeJS.Timeout | undefined;
  try {
    // The client starts once the audit prints its profile (it listens; --profile-out is written next), as
    // a user starts it from another terminal: on a loaded machine the audit's start-up outlasted the
    // client's 10 s wait for the profile file. Bounded: an audit that never prints is judged below.
    await Promise.race([listening, exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, 120_000)))]);
    clearTimeout(timer);
    const client = await tsx(dir, ['examples/clients/sample-client.ts', '--profile', profile, '--duration', '0', '--mode', mode], 120_000);
    child.kill('SIGTERM');
    const code = await exited;
    return { audit: { code, out: text }, client, out };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

/** The tests the changes touch: model, generator staleness and coverage, mutant bank and coverage, reference auth, single-source scan, the load contracts, the client judges. */
const NEAR = [
  'src/model/load.test.ts', 'generators/suites.test.ts', 'src/mutants/registry.test.ts', 'src/mutants/mutation-coverage.test.ts', 'src/reference/auth.test.ts', 'test/architecture/single-source.test.ts',
  'src/load/contract.test.ts', 'src/audit/judges/judges.test.ts',
];

describe('the recipes of docs/extend-the-toolkit.md, on one scratch copy', () => {
  let dir: string;
  beforeAll(async () => {
    const t0 = performance.now();
    dir = await scratchCopy();
    console.log(`recipe scratch copy in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the model steps alone fail naming the files the other steps edit; all steps generate and typecheck', async () => {
    // Error row, steps 1-2: the row alone makes the generator name the driver it lacks.
    await addRow(dir);
    const first = await tsx(dir, ['generators/index.ts']);
    log('error row 1-2: row + npm run generate', first);
    expect(first.code).not.toBe(0);
    expect(first.out).toMatch(new RegExp(`${ROW_ID}.*suites/drivers/errors.ts has no driver`));
    await addDriver(dir);
    await addReferenceStep(dir);
    await addVariant(dir);

    // Client rule, steps 1-2; load contract, steps 1-2 (contract and scenario, no breaking target yet).
    await addRule(dir);
    await addContract(dir);
    await listOnScenario(dir);
    const gen = await tsx(dir, ['generators/index.ts']);
    log('npm run generate', gen);
    expect(gen.code, gen.out).toBe(0);
    const ids = await readFile(path.join(dir, 'src/generated/ids.ts'), 'utf8');
    expect(ids).toContain(JSON.stringify(ROW_ID));
    expect(ids).toContain(JSON.stringify(RULE_ID));
    expect(await readFile(path.join(dir, 'suites/generated/errors.ts'), 'utf8')).toContain(`id: ${JSON.stringify(CHECK_ID)}`);

    // tsc names exactly the files the remaining steps edit: the client rule's judge registry and
    // library expectations, the load contract's breaking target. One typecheck process for both
    // checks: the second re-checks only what the steps in between can affect.
    const types = typechecker(dir);
    try {
      const partial = await types.check();
      log('typecheck before the judge, the library expectation and the breaking target', partial);
      expect(partial.code).not.toBe(0);
      expect(tscErrorFiles(partial.out)).toEqual(['src/audit/bank/libraries.ts', 'src/audit/judges/index.ts', 'src/load/contract.test.ts']);
      expect(partial.out).toContain(RULE_ID);
      expect(partial.out).toContain(CONTRACT_ID);

      await addJudge(dir);
      await addLibraryExpectation(dir);
      await addFaultyMode(dir);
      await addBreakingTarget(dir);
      const table = await tsx(dir, ['test/recipe/update-library-table.ts']);
      expect(table.code, table.out).toBe(0);
      expect(await readFile(path.join(dir, 'docs/certify-your-client.md'), 'utf8')).toMatch(new RegExp(`^\\| ${RULE_ID} \\| \\*\\*pass\\*\\*`, 'm'));
      const full = await types.check();
      log('typecheck', full);
      expect(full.code, full.out).toBe(0);
    } finally {
      types.close();
    }
  }, 1_200_000);

  // The three proofs are independent commands on the finished copy, and mostly wait (backoff, audits): they run side by side.
  // One selftest scores both recipes' variants, the error row's server variant and the client rule's
  // faulty mode (`client:` entries run the client bank beside the server variants), each with its own
  // row and the exit code of both: one CLI start and one process fewer (2 s of CPU).
  let selftest: Promise<Ran> | undefined;
  const selftestBoth = () => (selftest ??= run(dir, 'node', ['bin/baas-conform.js', 'selftest', '--variant', VARIANT_ID, '--variant', `client:${MODE}`, '--workers', '0']));
  it.concurrent('error row: the check passes on the reference and the selftest credits it with the variant', async () => {
    const pass = await run(dir, 'node', ['bin/baas-conform.js', 'run', '--check', CHECK_ID]);
    log(`run --check ${CHECK_ID}`, pass);
    expect(pass.code, pass.out).toBe(0);
    expect(pass.out).toMatch(/1 passed/);
    const self = await selftestBoth();
    log(`selftest --variant ${VARIANT_ID}`, self);
    expect(self.code, self.out).toBe(0);
    expect(self.out).toMatch(new RegExp(`${esc(VARIANT_ID)}\\s+faulty\\s+${ROW_ID}\\s+${esc(CHECK_ID)}`));
  }, 600_000);

  it.concurrent('client rule: the faulty mode is named by exactly the new rule; the conforming client passes it; the audit reports show it', async () => {
    const [self, faulty, conforming] = await Promise.all([
      selftestBoth(),
      auditWithSampleClient(dir, 'faulty', MODE),
      auditWithSampleClient(dir, 'conforming', 'none'),
    ]);
    log(`selftest --variant client:${MODE}`, self);
    expect(self.code, self.out).toBe(0);
    expect(self.out).toMatch(new RegExp(`^${esc(MODE)}\\s+faulty\\s+${RULE_ID}\\s+${RULE_ID} \\(0, 1\\)$`, 'm'));
    const outcome = async (out: string) => {
      const json = JSON.parse(await readFile(path.join(out, 'audit.json'), 'utf8')) as { rules: { id: string; outcome: string }[] };
      return json.rules.find((r) => r.id === RULE_ID)?.outcome;
    };
    log('audit (faulty client)', faulty.audit);
    log('audit (conforming client)', conforming.audit);
    const both = (a: typeof faulty) => `${a.audit.out}\n--- the sample client (exit ${a.client.code}):\n${a.client.out}`;
    expect(await outcome(faulty.out), both(faulty)).toBe('warn');
    expect(await outcome(conforming.out), both(conforming)).toBe('pass');
    for (const a of [faulty, conforming]) {
      expect(await readFile(path.join(a.out, 'audit.html'), 'utf8')).toContain(RULE_ID);
      expect(await readFile(path.join(a.out, 'junit.xml'), 'utf8')).toContain(`name="${RULE_ID}`);
      expect(a.audit.out).toContain(RULE_ID);
    }
  }, 600_000);

  it.concurrent('load contract: judged and holding on the reference, failing on the breaking target, in the reports; the tests near every change pass', async () => {
    // One worker: the eight files share one module graph (the copy's config isolates no file), 2.3 s less CPU than three workers importing it each.
    const near = await run(dir, path.join(dir, 'node_modules/.bin/vitest'), ['run', '--maxWorkers=1', '--reporter=verbose', ...NEAR], 900_000);
    log('tests near the changes', near);
    expect(near.code, near.out).toBe(0);
    expect(near.out).toMatch(new RegExp(`${esc(CONTRACT_ID)} is judged and holds on the reference`));
    expect(near.out).toMatch(new RegExp(`${esc(CONTRACT_ID)} fails on a target breaking it`));
  }, 900_000);
});
