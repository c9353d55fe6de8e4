// resolveRunOptions: the flags every long command shares, resolved once in one order (flag > config
// file > unset, where the library's own default applies) into trusted values. Commands read the
// fields they have; `baas-conform.config.json` (or --config FILE) serves every command alike.
import { resolve } from 'node:path';
import { loadConfig, type RunConfig } from '../profile/index.ts';
import { REPORT_DIRS } from './defaults.ts';
import { qualifyRunValues } from './run.ts';
import type { Shard } from './shard.ts';

/** Where reports go when neither --report-dir nor the config file says. */
export const DEFAULT_REPORT_DIR = REPORT_DIRS.run;

/** The yargs values of the shared flags (camelCase), as a command receives them. */
export interface RunFlagValues {
  config?: unknown;
  profile?: unknown;
  target?: unknown;
  seed?: unknown;
  shard?: unknown;
  check?: unknown;
  safe?: unknown;
  concurrency?: unknown;
  runs?: unknown;
  timeoutBudget?: unknown;
  checkTimeout?: unknown;
  rateLimitWait?: unknown;
  reportDir?: unknown;
  failFast?: unknown;
  minCoverage?: unknown;
  controlAdapter?: unknown;
  webhookListen?: unknown;
  /** run only: --history-keep and --otlp (bounded with the rest, so one message names every problem). */
  historyKeep?: unknown;
  otlp?: unknown;
}

export interface ResolvedRunOptions {
  /** Absolute path of the profile file(s): one for most commands, two for compare. */
  profiles: string[];
  target?: string;
  seed?: number;
  shard?: Shard;
  checks: string[];
  safe: boolean;
  concurrency?: number;
  numRuns?: number;
  timeoutBudgetMs?: number;
  checkTimeoutMs?: number;
  rateLimitWaitMs?: number;
  /** Absolute; DEFAULT_REPORT_DIR under cwd when unset. */
  reportDir: string;
  /** true when --report-dir or the config file named it (commands that write reports only on request). */
  reportDirGiven: boolean;
  failFast: boolean;
  minCoverage?: number;
  controlAdapterFile?: string;
  webhookListen?: string;
  historyKeep?: number;
  otlp?: string;
}

const list = (v: unknown): string[] => (v === undefined || v === null ? [] : ([] as unknown[]).concat(v).map(String));
const str = (v: unknown): string | undefined => (v === undefined || v === null ? undefined : String(v));

/** Flag > config file for every shared option, then every bound at once (src/options/run.ts). */
export async function resolveRunOptions(flags: RunFlagValues, cwd: string): Promise<ResolvedRunOptions> {
  const config: RunConfig = await loadConfig({ file: str(flags.config), cwd });
  const q = qualifyRunValues({
    seed: flags.seed ?? config.seed,
    shard: flags.shard ?? config.shard,
    concurrency: flags.concurrency ?? config.concurrency,
    numRuns: flags.runs ?? config.runs,
    timeoutBudgetMs: flags.timeoutBudget ?? config.timeout_budget,
    checkTimeoutMs: flags.checkTimeout ?? config.check_timeout,
    rateLimitWaitMs: flags.rateLimitWait ?? config.rate_limit_wait,
    minCoverage: flags.minCoverage ?? config.min_coverage,
    historyKeep: flags.historyKeep,
    otlp: flags.otlp,
  });
  const profiles = list(flags.profile).map((p) => resolve(cwd, p));
  if (profiles.length === 0 && config.profile) profiles.push(config.profile);
  const target = str(flags.target) ?? config.target;
  const reportDirText = str(flags.reportDir) ?? config.report_dir;
  const adapter = str(flags.controlAdapter);
  return {
    profiles,
    target,
    ...q,
    checks: list(flags.check).length ? list(flags.check) : list(config.check),
    safe: !!(flags.safe ?? config.safe),
    reportDir: resolve(cwd, reportDirText ?? DEFAULT_REPORT_DIR),
    reportDirGiven: reportDirText !== undefined,
    failFast: !!(flags.failFast ?? config.fail_fast),
    controlAdapterFile: adapter !== undefined ? resolve(cwd, adapter) : config.control_adapter,
    webhookListen: str(flags.webhookListen) ?? config.webhook_listen,
  };
}
