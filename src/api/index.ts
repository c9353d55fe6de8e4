// The programmatic entry points that the CLI commands themselves call.
export { runConformance, type ConformanceOptions, type ConformanceResult } from './conformance.ts';
export { conformanceEvents, type ConformanceEvents } from './events.ts';
