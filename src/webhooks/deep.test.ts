// A delivery nested deeper than the client's JSON bound (src/client/decode.ts) is kept as raw text:
// parsed, it would crash every recursive walker in the checks (RangeError) and cost ~20 MB of heap per
// 1 MiB body. As text it reads as "not JSON", the target's fault under the delivery rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../client/decode.ts';
import { startWebhookReceiver, type TestWebhookReceiver } from './index.ts';

let rx: TestWebhookReceiver;
beforeAll(async () => {
  rx = await startWebhookReceiver();
});
afterAll(() => rx.close());

const post = (path: string, body: string) => fetch(`${rx.baseUrl}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('webhook receiver and deep JSON', () => {
  it('keeps a 400,000-deep body as text, and parses one at the depth bound', async () => {
    const deep = `${'['.repeat(400_000)}${']'.repeat(400_000)}`;
    expect((await post('/v2/webhooks/user', deep)).status).toBe(204);
    const got = await rx.waitFor('/v2/webhooks/user', () => true, 1000);
    expect(typeof got?.body).toBe('string');
    expect((got?.body as string).length).toBe(deep.length);
    const edge = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    await post('/edge', edge);
    expect(Array.isArray((await rx.waitFor('/edge', () => true, 1000))?.body)).toBe(true);
  });
});
