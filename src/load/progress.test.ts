import { describe, expect, it } from 'vitest';
import { progressPrinter } from './progress.ts';
import { runLoad } from './index.ts';
import { stallTarget } from './testing.ts';

const snap = (elapsed_s: number, errors = 0) => ({ elapsed_s, rps: 1234.5, p99_ms: 12.3, errors, in_flight: 7, queued: 0, completed: 100 });

describe('load progress', () => {
  it('on a TTY: one line rewritten in place, red when errors unless NO_COLOR', () => {
    let out = '';
    const p = progressPrinter({ write: (s: string) => (out += s), isTTY: true }, {}, 'user-read');
    p.onProgress(snap(1));
    p.onProgress(snap(2, 3));
    p.done();
    expect(out).not.toContain('\n');
    expect(out.split('\r\x1b[2K').filter(Boolean)).toHaveLength(2);
    expect(out).toContain('1235 req/s');
    expect(out).toContain('p99 12.3 ms');
    expect(out).toContain('in flight 7');
    expect(out).toContain('\x1b[31m');
    let plain = '';
    const q = progressPrinter({ write: (s: string) => (plain += s), isTTY: true }, { NO_COLOR: '1' }, 'user-read');
    q.onProgress(snap(2, 3));
    expect(plain).not.toContain('\x1b[31m');
  });

  it('piped or under CI: plain lines, one per period, nothing rewritten', () => {
    for (const [isTTY, env] of [[false, {}], [true, { CI: 'true' }]] as const) {
      let out = '';
      const p = progressPrinter({ write: (s: string) => (out += s), isTTY }, env, 'user-read', 5);
      for (let s = 1; s <= 12; s++) p.onProgress(snap(s));
      p.done();
      expect(out).not.toContain('\r');
      expect(out).not.toContain('\x1b');
      expect(out.trim().split('\n')).toHaveLength(3);
    }
  });

  it('a real run reports progress while requests are in flight', async () => {
    const t = await stallTarget({ delayFor: () => 300 });
    try {
      const seen: { in_flight: number }[] = [];
      await runLoad({ scenario: 'user-read', profile: t.profile, durationSec: 1, connections: 4, onProgress: (p) => seen.push(p) });
      expect(seen.length).toBeGreaterThanOrEqual(1);
      expect(Math.max(...seen.map((s) => s.in_flight))).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});
