// A coordinated load run past one machine: `load coordinate` (the coordinator) and `load --coordinator
// URL --shard i/n` (a shard that streams HDR deltas and obeys stop). One verdict, judged live.
export { coordinate, startCoordinator, type CoordinateOptions, type CoordinatedRun, type Coordinator, type ShardSummary } from './coordinate.ts';
export { coordinatedShardRunner, runCoordinatedShard, type ShardLink } from './shard.ts';
export { COORDINATOR_LIMITS, planDigest } from './protocol.ts';
