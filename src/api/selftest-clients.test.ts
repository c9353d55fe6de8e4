// The clients area's kill matrix as printed, and its exit code: a library client that could not run
// (its package missing, as in an installed CLI) is shown skipped with the reason and never counted as
// judged; a run in which nothing could run judged nothing (exit 4).

import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../errors/index.ts';
import { clientBankExit, formatClientBank, type ClientBankRow } from './selftest-clients.ts';

const judged: ClientBankRow = { mode: 'lib:fetch', caught: ['CLIENT-TOKEN-BACKOFF'], exitCode: 1, strictExitCode: 1, ok: true, ms: 20_000 };
const skipped: ClientBankRow = { mode: 'lib:got', caught: [], exitCode: -1, strictExitCode: -1, ok: true, unavailable: 'not available: got not installed', ms: 3 };

describe('selftest --area clients output', () => {
  it('shows a library client that could not run as skipped with its reason, outside the judged count', () => {
    const text = formatClientBank([judged, skipped]);
    expect(text).toMatch(/^lib:got\s+library\s+-\s+skipped: not available: got not installed$/m);
    expect(text).toMatch(/1\/1 library clients judged as expected \(1 not available\)/);
    expect(clientBankExit([judged, skipped])).toBe(EXIT_CODES.ok);
  });

  it('is inconclusive when no client could run, and fails when one was not judged as expected', () => {
    expect(clientBankExit([skipped])).toBe(EXIT_CODES.inconclusive);
    expect(clientBankExit([{ ...judged, ok: false }, skipped])).toBe(EXIT_CODES.failed);
  });
});
