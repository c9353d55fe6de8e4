// `baas-conform compare --profile a.json --profile b.json [--seed S]`: the same seeded checks against
// two targets; prints the differences and writes compare.json and compare.html. Exit 0 when no rule
// verdict differs, 1 when one does (differences in the answers alone never fail it), 2 usage,
// 3 a target unreachable.

import { join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { buildCompareHtml, compareTargets, formatCompare } from '../../compare/index.ts';
import { ConfigError } from '../../errors/index.ts';
import { writeReport } from '../../report/files.ts';
import { RUN_DEFAULTS } from '../../runner/index.ts';
import type { CliCommand, CliIo } from '../types.ts';
import { parseSeed, positiveInt } from '../options.ts';
import { RUN_CLI_DEFAULTS } from './run.ts';

export const COMPARE_FILES = { json: 'compare.json', html: 'compare.html' } as const;

const shellArg = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

async function compareHandler(args: Record<string, any>, io: CliIo): Promise<number> {
  const profiles: string[] = [...(args.profile ?? [])].map(String);
  if (profiles.length !== 2) throw new ConfigError(`compare needs exactly two targets: --profile a.json --profile b.json (got ${profiles.length})`);
  const seed = parseSeed(args.seed);
  const reportDir = resolve(io.cwd, args.reportDir ?? RUN_CLI_DEFAULTS.reportDir);
  const paths = { json: resolve(io.cwd, args.json ?? join(reportDir, COMPARE_FILES.json)), html: resolve(io.cwd, args.html ?? join(reportDir, COMPARE_FILES.html)) };
  const checks: string[] = [...(args.check ?? [])].map(String);
  const result = await compareTargets({
    profiles: [resolve(io.cwd, profiles[0]), resolve(io.cwd, profiles[1])],
    seed,
    checks,
    safe: !!args.safe,
    concurrency: positiveInt('concurrency', args.concurrency) ?? RUN_DEFAULTS.concurrency,
    numRuns: positiveInt('runs', args.runs),
    timeoutBudgetMs: positiveInt('timeout-budget', args.timeoutBudget),
    checkTimeoutMs: positiveInt('check-timeout', args.checkTimeout),
    env: io.env,
    cwd: io.cwd,
    onRun: (side, phase, info) => {
      if (phase === 'start') io.stdout.write(`running the checks against ${side.toUpperCase()}: ${info.baseUrl}\n`);
    },
  });
  const replay = ['npx baas-conform compare', ...profiles.flatMap((p) => ['--profile', shellArg(p)]), '--seed', String(result.seed), ...checks.flatMap((c) => ['--check', shellArg(c)]), ...(args.safe ? ['--safe'] : [])].join(' ');
  await writeReport(paths.json, `${JSON.stringify(result, null, 2)}\n`);
  await writeReport(paths.html, buildCompareHtml(result, replay));
  io.stdout.write(`${formatCompare(result).join('\n')}\n`);
  io.stdout.write(`Reports: ${paths.json}, ${paths.html}\nExit ${result.exitCode}${result.exitCode ? ': a rule verdict differs' : ''}\n`);
  return result.exitCode;
}

export const compareCommand: CliCommand = {
  command: 'compare',
  describe: 'Run the same seeded checks against two targets and report rule verdicts that differ, and how their answers differ (where the spec specifies, where it is silent). Exit 1 if a rule verdict differs',
  builder: (y: Argv) =>
    y
      .option('profile', { type: 'string', array: true, describe: 'Target profile JSON; give it twice: A, then B (credentials in each profile: BAAS_CLIENT* from the environment apply to both)' })
      .option('seed', { type: 'number', describe: 'Run seed for both runs (random when absent; printed for replay)' })
      .option('check', { type: 'string', array: true, describe: 'Compare only these checks: exact id, prefix (errors.token.*) or glob; repeatable' })
      .option('safe', { type: 'boolean', describe: 'Only checks that create nothing and move no money' })
      .option('concurrency', { type: 'number', describe: `Checks run at once in each run (default ${RUN_DEFAULTS.concurrency})` })
      .option('runs', { type: 'number', describe: `fast-check runs per property (default ${RUN_DEFAULTS.numRuns})` })
      .option('timeout-budget', { type: 'number', describe: 'Per-request time budget in ms (default: the section 8 recommended request timeout from spec/)' })
      .option('check-timeout', { type: 'number', describe: `Per-check time limit in ms (default ${RUN_DEFAULTS.checkTimeoutMs})` })
      .option('report-dir', { type: 'string', describe: `Directory for ${COMPARE_FILES.json} and ${COMPARE_FILES.html} (default ./${RUN_CLI_DEFAULTS.reportDir})` })
      .option('json', { type: 'string', describe: 'Path of the JSON comparison' })
      .option('html', { type: 'string', describe: 'Path of the HTML comparison' }),
  run: compareHandler,
};
