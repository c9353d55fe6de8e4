// The optional config file (`baas-conform.config.json` in the cwd, or `--config FILE`): the same
// knobs as the command line, so CI can keep them in the repo. Command-line flags win over it.

import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { readInputFile } from '../input/index.ts';
import { validateOrThrow } from './validate.ts';
import { RUN_BOUNDS } from '../options/run.ts';

export const CONFIG_FILE_NAME = 'baas-conform.config.json';

export interface RunConfig {
  /** Profile path; relative paths are resolved against the config file's directory. */
  profile?: string;
  target?: string;
  seed?: number;
  /** Per-request timeout budget in ms. */
  timeout_budget?: number;
  concurrency?: number;
  runs?: number;
  safe?: boolean;
  check?: string[];
  shard?: string;
  report_dir?: string;
  fail_fast?: boolean;
  check_timeout?: number;
  rate_limit_wait?: number;
  /** --min-coverage: share (0..1) of testable rules that must be exercised. */
  min_coverage?: number;
  /** --control-adapter; relative paths are resolved against the config file's directory. */
  control_adapter?: string;
  /** --webhook-listen host:port. */
  webhook_listen?: string;
}

/** A config key's JSON Schema range, read from the run mode's bounds (src/options/run.ts): written once. */
function bounded(b: { integer?: boolean; min?: number; max?: number }) {
  return { type: b.integer ? 'integer' : 'number', ...(b.min !== undefined ? { minimum: b.min } : {}), ...(b.max !== undefined ? { maximum: b.max } : {}) };
}

const CONFIG_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    profile: { type: 'string', minLength: 1 },
    target: { type: 'string', pattern: '^https?://' },
    seed: bounded(RUN_BOUNDS.seed),
    timeout_budget: bounded(RUN_BOUNDS.timeoutBudgetMs),
    concurrency: bounded(RUN_BOUNDS.concurrency),
    runs: bounded(RUN_BOUNDS.numRuns),
    safe: { type: 'boolean' },
    check: { type: 'array', items: { type: 'string', minLength: 1 } },
    shard: { type: 'string', pattern: '^\\d+/\\d+$' },
    report_dir: { type: 'string', minLength: 1 },
    fail_fast: { type: 'boolean' },
    check_timeout: bounded(RUN_BOUNDS.checkTimeoutMs),
    rate_limit_wait: bounded(RUN_BOUNDS.rateLimitWaitMs),
    min_coverage: bounded(RUN_BOUNDS.minCoverage),
    control_adapter: { type: 'string', minLength: 1 },
    webhook_listen: { type: 'string', pattern: '^[^\\s:]*:[0-9]{1,5}$' },
  },
} as const;

/**
 * Loads the config file. With `file`, it must exist; without, `<cwd>/baas-conform.config.json` is
 * used when present and `{}` returned otherwise.
 */
export async function loadConfig(opts: { file?: string; cwd?: string } = {}): Promise<RunConfig> {
  const cwd = opts.cwd ?? process.cwd();
  const path = resolve(cwd, opts.file ?? CONFIG_FILE_NAME);
  if (!opts.file && !existsSync(path)) return {};
  const doc = await readInputFile(path, { what: 'config file', format: 'json' });
  let config: RunConfig;
  try {
    config = { ...validateOrThrow<RunConfig>(CONFIG_SCHEMA, doc.value, 'config', `config file ${path}`) };
  } catch (err) {
    throw doc.locate(err);
  }
  if (config.profile) config.profile = resolve(dirname(path), config.profile);
  if (config.control_adapter) config.control_adapter = resolve(dirname(path), config.control_adapter);
  return config;
}
