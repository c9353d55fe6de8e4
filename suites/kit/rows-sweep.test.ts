// The rest of a section 7 row's family (suites/kit/rows.ts sweepOperations) and how one request per
// operation is judged (sweepRow): the row, or another refusal first (the order is not shown), passes; a
// success or a 5xx fails naming the operation. Judged on a real loopback server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckFailure } from '../../src/checks/signals.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import { loadModel } from '../../src/model/index.ts';
import type { Model } from '../../src/model/types.ts';
import { rowOperations, SWEEP_BATCH, sweepOperations, sweepRow, type RowOperation } from './rows.ts';

let model: Model;
let server: Server;
let base: string;
/** op -> [status, body] the loopback answers; anything else answers the ERR-S2S-SIGNATURE-INVALID row. */
const answers = new Map<string, [number, unknown]>();
let inFlight = 0;
let maxInFlight = 0;

function ctxWith(operations: Record<string, unknown>, extra: Partial<CheckContext> = {}): CheckContext & { logs: string[] } {
  const logs: string[] = [];
  return { model, profile: { base_url: base, operations, request_templates: {} }, log: (m: string) => logs.push(m), logs, ...extra } as unknown as CheckContext & { logs: string[] };
}

beforeAll(async () => {
  model = await loadModel();
  server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const op = (req.url ?? '').slice(1);
    const r = model.errorRule('ERR-S2S-SIGNATURE-INVALID');
    const [status, body] = answers.get(op) ?? [r.status, { error_reason: r.reason, error_description: r.message, error_category: { category: r.category, http_status_code: r.status }, error_details: [] }];
    // A short hold so the requests of one batch overlap (the bound is counted, not timed).
    setTimeout(() => {
      inFlight--;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }, 20);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

async function send(o: RowOperation): Promise<HttpResponse> {
  const res = await fetch(`${base}/${o.op}`, { signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  return { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? '' }, text, json: JSON.parse(text) } as unknown as HttpResponse;
}

describe('sweepOperations', () => {
  it('takes the family after the rows: path parameters with a fixture id or a made-up one, empty bodies for money movers, no operation the profile cannot locate; --safe keeps reads', () => {
    const ctx = ctxWith({ blockCard: { method: 'POST', path: '/b/{card_id}' }, getRecipient: { method: 'GET', path: '/r/{recipient_id}' } });
    const tried = rowOperations(ctx, 'ERR-S2S-SIGNATURE-INVALID', 's2s-token');
    const rest = sweepOperations(ctx, 's2s-token', tried, { card_id: 'card-1' });
    const ops = rest.map((o) => o.op);
    for (const t of tried) expect(ops).not.toContain(t.op);
    expect(ops).toEqual(expect.arrayContaining(['blockCard', 'getRecipient', 'executeCardTransfer', 'completeBankAccount']));
    // Not located: the spec does not show its path and the profile gives none.
    expect(ops).not.toContain('closeCard');
    expect(rest.find((o) => o.op === 'blockCard')?.params).toEqual({ card_id: 'card-1' });
    expect(rest.find((o) => o.op === 'getRecipient')?.params?.recipient_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rest.find((o) => o.op === 'executeCardTransfer')?.body).toEqual({});
    const safe = sweepOperations({ ...ctx, safeMode: true } as CheckContext, 's2s-token', tried, { card_id: 'card-1' });
    expect(safe.length).toBeGreaterThan(0);
    for (const o of safe) expect(model.operation(o.op).method.toLowerCase(), o.op).toBe('get');
  });
});

describe('sweepRow', () => {
  const ops = (n: number): RowOperation[] => ['listCards', 'blockCard', 'getRecipient', 'approve3ds', 'getCardPan', 'listWallets'].slice(0, n).map((op) => ({ op: op as never, weight: 1, label: `label-${op}` }));

  it('passes the row, and another refusal first as ambiguous; at most SWEEP_BATCH requests in flight', async () => {
    answers.clear();
    answers.set('approve3ds', [404, { error_reason: 'ErrorNotFound', error_description: 'not found' }]);
    maxInFlight = 0;
    const ctx = ctxWith({});
    await sweepRow(ctx, 'ERR-S2S-SIGNATURE-INVALID', ops(6), send);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(SWEEP_BATCH);
    expect(ctx.logs.join('\n')).toMatch(/swept 6 more .*label-approve3ds HTTP 404/);
  });

  it('fails a success (the faulty credential taken) and a 5xx, naming the operation', async () => {
    answers.clear();
    answers.set('blockCard', [200, { id: 'card-1', status: 'Blocked' }]);
    const err = await sweepRow(ctxWith({}), 'ERR-S2S-SIGNATURE-INVALID', ops(6), send).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckFailure);
    expect((err as CheckFailure).message).toMatch(/^label-blockCard: /);
    answers.clear();
    answers.set('getCardPan', [500, { error_reason: 'ErrorInternal' }]);
    await expect(sweepRow(ctxWith({}), 'ERR-S2S-SIGNATURE-INVALID', ops(6), send)).rejects.toThrow(/label-getCardPan/);
  });
});
