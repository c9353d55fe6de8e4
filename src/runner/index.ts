// Runner: selection, seeds, needs, preflight, services, scheduling, events, rule coverage.
export { runChecks } from './run.ts';
export { RUN_DEFAULTS, type RunOptions, type RunOutcome } from './options.ts';
export { selectChecks, matchesPattern, inShard, stableHash, type Shard } from './select.ts';
export { deriveSeed, randomSeed, seededRandom } from './seed.ts';
export { unmetNeed, skipReasonFor, NO_CONTROL } from './needs.ts';
export { preflight } from './preflight.ts';
export { startServices } from './services.ts';
export { exercisedRules, judgedRules, ruleVerdicts, summarize } from './coverage.ts';
export { TOOL_NAME, TOOL_VERSION } from './version.ts';
