// The one shard type and parser: `--shard i/n` (1-based, as in `JOB_COMPLETION_INDEX + 1`) for the
// conformance run (a deterministic split of the checks) and for load (1/n of the rate and requests).
import { ConfigError } from '../errors/index.ts';

export interface Shard {
  /** 1-based, as in `--shard 2/4`. */
  index: number;
  total: number;
}

/** Most shards a run may be split into: a bound, so that a typo does not start 10^9 workers. */
export const MAX_SHARDS = 10_000;

/** `2/4` -> {index: 2, total: 4}; undefined when absent; a ConfigError for anything else. */
export function parseShard(value: unknown, flag = 'shard'): Shard | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return checkShard(value as Shard, flag);
  const m = /^(\d+)\/(\d+)$/.exec(String(value).trim());
  if (!m) throw shardError(value, flag);
  return checkShard({ index: Number(m[1]), total: Number(m[2]) }, flag);
}

function checkShard(s: Shard, flag: string): Shard {
  const ok = Number.isInteger(s.index) && Number.isInteger(s.total) && s.total >= 1 && s.total <= MAX_SHARDS && s.index >= 1 && s.index <= s.total;
  if (!ok) throw shardError(`${s.index}/${s.total}`, flag);
  return { index: s.index, total: s.total };
}

const shardError = (value: unknown, flag: string) =>
  new ConfigError(`--${flag} must look like i/n with 1 <= i <= n <= ${MAX_SHARDS}, got ${JSON.stringify(value)}; in a Kubernetes Indexed Job use $((JOB_COMPLETION_INDEX + 1))/n`);
