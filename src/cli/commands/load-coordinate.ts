// `baas-conform load coordinate --shards N --plan plan.yaml [--port P]` and the shard side,
// `load --plan plan.yaml --coordinator URL --shard i/n`: flags, one call into src/load/coordinator,
// the exit code (0 pass, 1 a threshold or contract failed, 2 configuration, 4 inconclusive: a shard
// never sent its result). The run token travels in BAAS_RUN_TOKEN, never on a command line.

import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { coordinate, coordinatedShardRunner, renderLoad, writeLoadOutputs, type LoadOptions, type LoadResult } from '../../api/load.ts';
import { ConfigError, exitCodeOf } from '../../errors/index.ts';
import { boundedInt, parsePort } from '../../options/index.ts';
import type { CliIo } from '../types.ts';
import { withCancellation } from '../cancel.ts';

export interface CoordinateArgs {
  plan?: string;
  shards?: number;
  port?: number;
  host?: string;
  interval?: number;
  coordinator?: string;
  joinTimeout?: number;
  reportDir?: string;
  json?: boolean;
  out?: string;
}

/** The flags of both sides (declared on `load`, whose positional selects `coordinate`). */
export function coordinateFlags(y: Argv): Argv {
  return y
    .option('shards', { type: 'number', describe: 'load coordinate: how many shards the run has (each runs load --coordinator URL --shard i/N)' })
    .option('interval', { type: 'number', describe: 'load coordinate: ms between shard reports (default 1000)' })
    .option('coordinator', { type: 'string', describe: 'Shard of a coordinated run: the URL of `load coordinate` (with --plan and --shard i/n; the run token in BAAS_RUN_TOKEN)' })
    .option('join-timeout', { type: 'number', describe: 'Coordinated run: seconds to wait for every shard to join (default 300)' });
}

function token(io: CliIo): string | undefined {
  const t = io.env.BAAS_RUN_TOKEN;
  if (t !== undefined && t.length < 16) throw new ConfigError('load: BAAS_RUN_TOKEN must be at least 16 characters (the coordinator makes one when it is unset)');
  return t;
}

export async function coordinateHandler(args: CoordinateArgs, io: CliIo): Promise<number> {
  if (args.plan === undefined) throw new ConfigError('load coordinate: give --plan plan.yaml (the plan every shard runs)');
  if (args.shards === undefined) throw new ConfigError('load coordinate: give --shards N');
  const given = token(io);
  const runToken = given ?? randomBytes(24).toString('base64url');
  const run = await withCancellation(io, 'every shard is told to stop; their results are still merged', (signal) =>
    coordinate({
      shards: boundedInt('shards', args.shards, 1, 1, 1000),
      planPath: resolve(io.cwd, String(args.plan)),
      planName: String(args.plan),
      ...(args.port !== undefined ? { port: parsePort('port', args.port) } : {}),
      ...(args.host !== undefined ? { host: args.host } : {}),
      ...(args.interval !== undefined ? { intervalMs: boundedInt('interval', args.interval, 1000, 50, 60_000) } : {}),
      ...(args.joinTimeout !== undefined ? { joinTimeoutMs: boundedInt('join-timeout', args.joinTimeout, 300, 1, 3600) * 1000 } : {}),
      token: runToken,
      reportDir: resolve(io.cwd, args.reportDir ?? '.'),
      onEvent: (line) => io.stderr.write(`${line}\n`),
      onListening: (c) => io.stderr.write(`coordinator: ${c.url} (Prometheus: ${c.url}/metrics)\n${given ? 'run token: from BAAS_RUN_TOKEN' : `run token: ${runToken} (give it to every shard as BAAS_RUN_TOKEN)`}\n`),
      signal,
    }),
  );
  if (run.result && args.out) await writeLoadOutputs(run.result, { out: args.out }, io.cwd);
  if (run.files) io.stderr.write(`load report: ${run.files.html} (JSON: ${run.files.json})\n`);
  io.stdout.write(args.json ? `${JSON.stringify(run, null, 2)}\n` : run.result ? renderLoad(run.result) : `INCONCLUSIVE: no shard sent its result (${run.shards.filter((s) => s.joined).length}/${run.shards.length} joined)\n`);
  return exitCodeOf(run.outcome);
}

/** `load --coordinator URL`: the runner that joins the coordinator around runLoad. */
export async function coordinatedRunner(args: CoordinateArgs, io: CliIo, runLoad: (o: LoadOptions) => Promise<LoadResult>): Promise<(o: LoadOptions) => Promise<LoadResult>> {
  if (args.plan === undefined) throw new ConfigError('load --coordinator: give --plan plan.yaml, the plan the coordinator runs');
  const runToken = token(io);
  if (!runToken) throw new ConfigError('load --coordinator: set BAAS_RUN_TOKEN to the run token the coordinator printed');
  if (!/^https?:\/\//.test(String(args.coordinator))) throw new ConfigError(`load --coordinator: ${JSON.stringify(args.coordinator)} is not an http(s) URL`);
  return coordinatedShardRunner(
    {
      url: String(args.coordinator),
      token: runToken,
      planPath: resolve(io.cwd, String(args.plan)),
      planName: String(args.plan),
      ...(args.joinTimeout !== undefined ? { joinTimeoutMs: boundedInt('join-timeout', args.joinTimeout, 300, 1, 3600) * 1000 } : {}),
      onEvent: (line: string) => io.stderr.write(`${line}\n`),
    },
    runLoad,
  );
}
