// Replay: re-send a recorded HAR's requests with fresh tokens and compare the answers (har-replay.ts);
// `replay results.json --check ID` is a run of one check with the recorded seed (the CLI command).
export { loadHar, replayHar, isWrite, type ReplayOutcome, type HarReplayOptions } from './har-replay.ts';
export { shapeDiff, shapeDifferences, normalise, jsonTypeOf, type ShapeDifference, type ShapeOptions } from './shape.ts';
export { Playback, type CheckPlayback } from './playback.ts';
