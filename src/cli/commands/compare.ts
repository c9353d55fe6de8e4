// `baas-conform compare --profile a.json --profile b.json [--seed S]`: the same seeded checks against
// two targets; prints the differences and writes compare.json and compare.html. Exit 0 when no rule
// verdict differs, 1 when one does (differences in the answers alone never fail it), 2 usage,
// 3 a target unreachable.

import type { Argv } from 'yargs';
import { renderCompare, runCompareMode } from '../../api/compare.ts';
import { ConfigError } from '../../errors/index.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { resolveRunOptions, type RunFlagValues } from '../../options/index.ts';
import { withCancellation } from '../cancel.ts';
import { sharedFlags } from '../flags.ts';

const shellArg = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The run flags plus the output flags compare's builder adds; --profile repeats. */
interface CompareArgs extends RunFlagValues {
  profile?: string | string[];
  json?: boolean;
  jsonOut?: string;
  html?: string;
}

async function compareHandler(args: CompareArgs, io: CliIo): Promise<number> {
  const o = await resolveRunOptions(args, io.cwd);
  const profiles: string[] = [...(args.profile ?? [])].map(String);
  if (o.profiles.length !== 2) throw new ConfigError(`compare needs exactly two targets: --profile a.json --profile b.json (got ${o.profiles.length})`);
  const human = args.json ? io.stderr : io.stdout;
  const replay = (seed: number) => ['npx baas-conform compare', ...profiles.flatMap((p) => ['--profile', shellArg(p)]), '--seed', String(seed), ...o.checks.flatMap((c) => ['--check', shellArg(c)]), ...(o.safe ? ['--safe'] : [])].join(' ');
  const { result, files: paths } = await withCancellation(io, 'running checks are aborted', (signal) => runCompareMode({
    profiles: [o.profiles[0], o.profiles[1]],
    seed: o.seed,
    checks: o.checks,
    safe: o.safe,
    concurrency: o.concurrency,
    numRuns: o.numRuns,
    timeoutBudgetMs: o.timeoutBudgetMs,
    checkTimeoutMs: o.checkTimeoutMs,
    signal,
    env: io.env,
    cwd: io.cwd,
    reportDir: o.reportDir,
    ...(args.jsonOut !== undefined ? { jsonOut: args.jsonOut } : {}),
    ...(args.html !== undefined ? { html: args.html } : {}),
    replay,
    onRun: (side, phase, info) => {
      if (phase === 'start') human.write(`running the checks against ${side.toUpperCase()}: ${info.baseUrl}\n`);
    },
  }));
  human.write(renderCompare(result));
  if (args.json) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  human.write(`Reports: ${paths.json}, ${paths.html}\nExit ${result.exitCode}${result.exitCode === 1 ? ': a rule verdict differs' : result.inconclusive ? `: ${result.inconclusive}` : ''}\n`);
  return result.exitCode;
}

export const compareCommand: CommandImpl<CompareArgs> = {
  builder: (y: Argv) =>
    // compare: --profile twice, A then B (BAAS_CLIENT* credentials from the environment apply to
    // both); --report-dir gets compare.json and compare.html.
    sharedFlags(y, 'config', 'profile', 'seed', 'check', 'safe', 'concurrency', 'runs', 'timeout-budget', 'check-timeout', 'report-dir', 'json', 'json-out')
      .option('html', { type: 'string', describe: 'Path of the HTML comparison' }),
  run: compareHandler,
};
