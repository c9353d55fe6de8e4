// `baas-conform replay FILE`: a HAR (run --har) re-sends its recorded requests with fresh tokens and
// prints where the answers differ; a results.json with --check re-runs that check with the run's
// seed. Target as for run: --profile, --target (or the config file's), or the embedded reference.

import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { runConformance } from '../../api/conformance.ts';
import { readResultsFile, replayFileKind, replayHarMode, type ReplayOutcome } from '../../api/replay.ts';
import { ConfigError } from '../../errors/index.ts';
import { ConsoleReporter } from '../../report/index.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { withCancellation } from '../cancel.ts';
import { sharedFlags } from '../flags.ts';
import { positiveInt, resolveRunOptions } from '../../options/index.ts';

/** Target text may hold terminal control characters. */
const clean = (s: string) => s.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, ' ');

/** The flags replay's builder declares (shared config/profile/target/check plus the HAR ones). */
interface ReplayArgs {
  file?: string;
  config?: string;
  profile?: string;
  target?: string;
  check?: string | string[];
  entry?: number[];
  allowWrites?: boolean;
}

/** The target flags after the config file: an absolute profile path and/or a target URL. */
interface ReplayTarget {
  profile?: string;
  target?: string;
}

async function replayResults(file: string, args: ReplayArgs, to: ReplayTarget, io: CliIo): Promise<number> {
  const doc = await readResultsFile(file);
  const ids: string[] = ([] as string[]).concat(args.check ?? []).map(String);
  if (ids.length > 1) throw new ConfigError(`replay ${file}: --check names one check to re-run, got ${ids.length}`);
  const id = ids[0];
  if (!id) throw new ConfigError(`replay ${file}: a results.json replays one check: add --check ID (its failed checks: ${doc.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'blocked').map((c) => c.checkId).join(', ') || 'none'})`);
  if (!doc.checks.some((c) => c.checkId === id)) throw new ConfigError(`replay: ${file} has no check ${id}`);
  if (doc.seed === undefined) throw new ConfigError(`replay: ${file} records no seed`);
  io.stdout.write(`replaying ${id} with the recorded seed ${doc.seed} (was ${doc.checks.find((c) => c.checkId === id)!.verdict})\n`);
  const seed = doc.seed;
  const outcome = await withCancellation(io, 'the check is aborted', (signal) =>
    runConformance({ ...to, env: io.env, cwd: io.cwd, seed, checks: [id], signal, reporters: [new ConsoleReporter({ stream: io.stdout })] }),
  );
  return outcome.exitCode;
}

function print(o: ReplayOutcome, io: CliIo): void {
  const head = `#${o.entry} ${o.method} ${clean(o.path)}${o.operation ? ` (${o.operation})` : ''}${o.check ? ` [${o.check}]` : ''}`;
  if (o.status !== 'replayed') io.stdout.write(`${o.status.toUpperCase()} ${head}: ${o.reason}\n`);
  else if (!o.differences.length) io.stdout.write(`SAME ${head}: HTTP ${o.newStatus}\n`);
  else io.stdout.write(`DIFFERS ${head}\n${o.differences.map((d) => `    ${clean(d)}`).join('\n')}\n`);
  for (const note of o.notes ?? []) io.stdout.write(`    note: ${clean(note)}\n`);
}

async function replayHarFile(file: string, args: ReplayArgs, to: ReplayTarget, io: CliIo): Promise<number> {
  const entries: number[] = [...(args.entry ?? [])].map((n: unknown) => positiveInt('entry', n)!);
  const outcomes = await withCancellation(io, 'no further request is sent, nothing is compared', (signal) =>
    replayHarMode({ file, ...to, env: io.env, cwd: io.cwd, entries, allowWrites: !!args.allowWrites, signal, log: (line) => void io.stdout.write(`${line}\n`) }),
  );
  for (const o of outcomes) print(o, io);
  const n = (s: ReplayOutcome['status']) => outcomes.filter((o) => o.status === s).length;
  const differing = outcomes.filter((o) => o.differences.length).length;
  io.stdout.write(`replayed ${n('replayed')}, differing ${differing}, refused ${n('refused')} (writes), skipped ${n('skipped')}\n`);
  const refused = outcomes.filter((o) => o.status === 'refused');
  if (refused.length) io.stderr.write(`refused ${refused.length} write(s) without --allow-writes: ${refused.map((o) => `#${o.entry} ${o.method} ${o.operation ?? o.path}`).join(', ')}\n`);
  return differing ? 1 : refused.length ? 2 : 0;
}

async function replayHandler(args: ReplayArgs, io: CliIo): Promise<number> {
  const file = resolve(io.cwd, String(args.file));
  // The config file (--config, else ./baas-conform.config.json) names the target as it does for run;
  // its check list is not read: replay's --check names the one check of a results.json to re-run.
  const o = await resolveRunOptions({ config: args.config, profile: args.profile, target: args.target }, io.cwd);
  const to: ReplayTarget = { profile: o.profiles[0], target: o.target };
  return (await replayFileKind(file)) === 'results' ? replayResults(file, args, to, io) : replayHarFile(file, args, to, io);
}

export const replayCommand: CommandImpl<ReplayArgs> = {
  builder: (y: Argv) =>
    // replay: tokens are minted from the profile's clients[0]; with a results.json, --check names
    // the one check to re-run with the recorded seed.
    sharedFlags(y, 'config', 'profile', 'target', 'check')
      .positional('file', { type: 'string', describe: 'run.har (HAR 1.2) or results.json' })
      .option('entry', { type: 'number', array: true, describe: 'HAR: replay only these entries (1-based); repeatable' })
      .option('allow-writes', { type: 'boolean', describe: 'HAR: also send requests that create state or move money (refused by default, exit 2)' }),
  run: replayHandler,
};
