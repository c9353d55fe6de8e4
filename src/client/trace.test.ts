// Span and trace ids are random hex that never reads as a number: a span id of 16 decimal digits passes
// the Luhn check one time in ten and then looks like a card number to any scanner of a report or a
// certification package (src/certify/rejudge.reference.test.ts scans for one).
import { describe, expect, it } from 'vitest';
import { newSpanId, newTraceId } from './trace.ts';

describe('trace ids', () => {
  it('are lowercase hex of the W3C lengths, never all zeros, never all decimal digits (20,000 of each)', () => {
    for (let i = 0; i < 20_000; i++) {
      const span = newSpanId();
      const trace = newTraceId();
      expect(span).toMatch(/^[0-9a-f]{16}$/);
      expect(trace).toMatch(/^[0-9a-f]{32}$/);
      expect(span).toMatch(/[a-f]/);
      expect(trace).toMatch(/[a-f]/);
    }
  });
});
