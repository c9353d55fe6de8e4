// The options layer shared by the CLI, the library (src/api) and certify: one parser per
// kind of value, one shard type, one resolution order for the shared flags.
// The target choice (profile, --target or the embedded reference) is src/api/target.ts.
export { parseNumber, positiveInt, nonNegativeInt, parseSeed, parsePort, parseShare, boundedInt, NON_NEGATIVE_INT, POSITIVE_INT, SEED_BOUNDS, SHARE_BOUNDS, TIMEOUT_BUDGET_BOUNDS, type NumberBounds } from './numbers.ts';
export { parseShard, MAX_SHARDS, type Shard } from './shard.ts';
// SELFTEST_DEFAULTS and its bounds: the selftest mode's options module, src/mutants/options.ts.
export { LISTEN_DEFAULTS, REPORT_DIRS, RUN_DEFAULTS, LOAD_DEFAULTS, WEBHOOK_WAIT_DEFAULTS } from './defaults.ts';
export { RUN_BOUNDS, RUN_REPORT_DEFAULTS, qualifyRunLimits, qualifyRunValues, type QualifiedRunValues, type RunValues } from './run.ts';
export { OptionProblems, type FlagBounds } from './problems.ts';
export { resolveRunOptions, DEFAULT_REPORT_DIR, type ResolvedRunOptions, type RunFlagValues } from './run-options.ts';
