// The playback target answers a check's requests from its recorded exchanges, in order, with the
// recorded answer (a value the check made in place of a recorded one mapped back into it), refuses a
// request nothing recorded answers (connection closed, noted), and answers nothing outside a check.
import { afterEach, describe, expect, it } from 'vitest';
import type { Har, HarEntry } from '../report/har.ts';
import { Playback } from './playback.ts';

const recorded = 'cmt.email.abcdefghijklmnopabcdefghijklmnopabcdefgh@commit.invalid';

function entry(check: string, method: string, url: string, body: string | undefined, status: number, answer: string): HarEntry {
  return {
    startedDateTime: '2026-01-01T00:00:00.000Z', time: 1,
    request: { method, url, httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'x-user-email', value: recorded }], queryString: [], headersSize: -1, bodySize: body?.length ?? 0, ...(body ? { postData: { mimeType: 'application/json', text: body } } : {}) },
    response: { status, statusText: '', httpVersion: 'HTTP/1.1', cookies: [], headers: [{ name: 'content-type', value: 'application/json' }], content: { size: answer.length, mimeType: 'application/json', text: answer }, redirectURL: '', headersSize: -1, bodySize: answer.length },
    cache: {}, timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 1, receive: 0 }, _check: check, _rules: [], _verdict: 'pass', _attempt: 1,
  };
}

const har: Har = {
  log: {
    version: '1.2', creator: { name: 'test', version: '0' },
    entries: [
      entry('c1', 'POST', 'http://recorded.test/users', JSON.stringify({ email: recorded, country: 'DE' }), 200, JSON.stringify({ id: '0f4705f4-7508-478b-8288-c96fa7efb2d3', email: recorded })),
      entry('c1', 'GET', 'http://recorded.test/users/0f4705f4-7508-478b-8288-c96fa7efb2d3', undefined, 404, '{"error_reason":"ErrorNotFound"}'),
    ],
  },
};

let playback: Playback | undefined;
afterEach(async () => {
  await playback?.close();
  playback = undefined;
});

describe('playback target', () => {
  it('answers in order with the recorded answers, the check\'s own value mapped in; refuses and notes what nothing answers', async () => {
    playback = await Playback.start(har);
    const base = playback.urlFor('http://recorded.test/')!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const outside = await fetch(`${base}/users`);
    expect(outside.status).toBe(404);
    expect(playback.outside).toHaveLength(1);

    playback.setCheck('c1');
    const created = await fetch(`${base}/users`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user-email': 'new@example.com' }, body: JSON.stringify({ email: 'new@example.com', country: 'DE' }) });
    expect(created.status).toBe(200);
    expect(await created.json()).toEqual({ id: '0f4705f4-7508-478b-8288-c96fa7efb2d3', email: 'new@example.com' });
    const read = await fetch(`${base}/users/0f4705f4-7508-478b-8288-c96fa7efb2d3`, { headers: { 'x-user-email': 'new@example.com' } });
    expect(read.status).toBe(404);
    expect(await read.text()).toBe('{"error_reason":"ErrorNotFound"}');
    await expect(fetch(`${base}/cards`, { method: 'POST', body: '{}' })).rejects.toThrow();
    playback.setCheck(undefined);
    expect(playback.resultOf('c1')).toMatchObject({ entries: [1, 2], unused: 0, mapped: 1, takenBy: [] });
    expect(playback.resultOf('c1').unmatched).toEqual([expect.stringMatching(/^POST \/cards: no recorded exchange of c1/)]);
  });
});
