// The defaults of the options the CLI, the library and certify share, declared once. Commands resolve
// their flags against these at the edge (src/options/run-options.ts, the command files); the library
// applies the same constants for callers that leave an option out, so both read one value.

import { RUN_REPORT_DEFAULTS } from './run.ts';

/** Servers the toolkit starts (serve, audit, the webhook receiver, the IdP, metrics): loopback, any free port. */
export const LISTEN_DEFAULTS = { host: '127.0.0.1', port: 0 } as const;

/** Where reports go when neither --report-dir nor the config file says. */
export const REPORT_DIRS = { run: RUN_REPORT_DEFAULTS.dir, audit: 'baas-conform-audit' } as const;

/** The conformance run: its defaults sit with its bounds in the run mode's options module. */
export { RUN_DEFAULTS } from './run.ts';

/**
 * profile.webhook_timeout_ms when the profile leaves it out: how long a check waits for a webhook the
 * target emits on its own schedule (20 s when the control API settled the event at once, else 90 s),
 * and the range a given value is held to (1 s..10 min).
 */
export const WEBHOOK_WAIT_DEFAULTS = { settledMs: 20_000, unsettledMs: 90_000, minMs: 1000, maxMs: 600_000 } as const;

/** A load run: its defaults sit with its bounds in the load mode's options module. */
export { LOAD_DEFAULTS } from '../load/options.ts';
