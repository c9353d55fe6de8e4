import { describe, expect, it } from 'vitest';
import { TokenSource, type IssuedToken } from './token-source.ts';

const model = { refreshBufferSeconds: () => 300, tokenValiditySeconds: () => 172_800 };

function fixture(answers: (now: number, n: number) => IssuedToken | Error) {
  let now = 1_000_000;
  let minted = 0;
  const source = new TokenSource<void>({
    model,
    now: () => now,
    retryDelayMs: 1000,
    mint: async () => {
      const a = answers(now, ++minted);
      if (a instanceof Error) throw a;
      return a;
    },
  });
  return { source, advance: (s: number) => (now += s), minted: () => minted };
}

describe('TokenSource', () => {
  it('reuses a token until the refresh buffer before expires_at, then mints again', async () => {
    const f = fixture((now, n) => ({ token: `t${n}`, expiresAt: now + 3600 }));
    expect(await f.source.get()).toBe('t1');
    f.advance(3600 - 300 - 1);
    expect(await f.source.get()).toBe('t1');
    f.advance(1);
    expect(await f.source.get()).toBe('t2');
    expect(f.minted()).toBe(2);
  });

  it('takes a token without expires_at to live the section 8 validity', async () => {
    const f = fixture((_now, n) => ({ token: `t${n}` }));
    await f.source.get();
    f.advance(172_800 - 300 - 1);
    expect(await f.source.get()).toBe('t1');
    f.advance(1);
    expect(await f.source.get()).toBe('t2');
  });

  it('shares one mint among concurrent callers and keeps no failed mint', async () => {
    const f = fixture((now, n) => (n === 1 ? new Error('HTTP 500') : { token: `t${n}`, expiresAt: now + 3600 }));
    const both = await Promise.allSettled([f.source.get(), f.source.get()]);
    expect(both.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(f.minted()).toBe(1);
    expect(await f.source.get()).toBe('t2');
  });

  it('peek answers with the held token while a background refresh runs, counting a failure', async () => {
    const f = fixture((now, n) => (n === 2 ? new Error('HTTP 503') : { token: `t${n}`, expiresAt: now + 600 }));
    await f.source.get();
    f.advance(400);
    expect(f.source.peek()).toBe('t1');
    await f.source.settle();
    expect(f.source.failures).toBe(1);
    expect(f.source.peek()).toBe('t1'); // within the retry delay: no new mint
    expect(f.minted()).toBe(2);
    f.advance(2);
    f.source.peek();
    await f.source.settle();
    expect(f.source.peek()).toBe('t3');
    expect(f.source.refreshes).toBe(1);
    expect(f.source.issued).toEqual(['t1', 't3']);
  });
});
