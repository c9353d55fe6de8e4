// valid_after is only "timestamp" in section 2: every common reading must parse to the same instant.

import { expect, it } from 'vitest';
import { timestampSeconds } from './limits-clock.ts';

it('reads Unix seconds, Unix milliseconds, numeric strings and ISO 8601 as the same instant; anything else is undefined', () => {
  const t = 1_800_000_000;
  for (const v of [t, t * 1000, String(t), String(t * 1000), new Date(t * 1000).toISOString(), '2027-01-15T08:00:00+00:00'.replace('2027-01-15T08:00:00', new Date(t * 1000).toISOString().slice(0, 19))]) {
    expect(timestampSeconds(v)).toBe(t);
  }
  expect(timestampSeconds(t + 0.5)).toBe(t + 0.5);
  for (const v of [undefined, null, '', 'soon', '12:00', -5, 0, Number.NaN, {}, '2026-13-45T99:00:00Z']) expect(timestampSeconds(v)).toBeUndefined();
});
