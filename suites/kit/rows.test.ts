// Which operations a section 7 identity row is tried on (suites/kit/rows.ts), from the real model.
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../src/checks/types.ts';
import { loadModel } from '../../src/model/index.ts';
import { identityRowOperations, ownRowOperations, requiresChain, rowOperations, userTokenRoutes } from './rows.ts';

async function ctxWith(operations: Record<string, unknown>): Promise<CheckContext> {
  const model = await loadModel();
  return { model, profile: { base_url: 'http://127.0.0.1:1', operations, request_templates: {} } } as unknown as CheckContext;
}

describe('identityRowOperations', () => {
  it('adds the user-scoped S2S operations with a shown request to the rule own reads, and leaves out what could be refused first', async () => {
    const ctx = await ctxWith({});
    const ops = identityRowOperations(ctx, 'ERR-S2S-USER-IDENTIFIER-MULTIPLE').map((o) => o.op);
    // The rule's own operations (spec/rules) stay.
    expect(ops).toEqual(expect.arrayContaining(['getUserV1', 'getUserV2', 'listCards']));
    // Writes and reads the row applies to that were never tried before.
    expect(ops).toEqual(expect.arrayContaining(['createVirtualCard', 'createBankAccount', 'getFullStatement', 'listWallets', 'validateRetailUser']));
    // Money movers, path parameters, bodies needing an earlier step, and the S2S authorize form are out.
    for (const out of ['executeCardTransfer', 'approve3ds', 'blockCard', 'estimateCardTransfer', 'createRecipientV2', 'completeBankAccount', 'authorizeUser', 'createUserV1']) expect(ops).not.toContain(out);
    // A not-shown path is tried only when the profile gives it.
    expect(ops).not.toContain('listActivity');
    const withPath = identityRowOperations(await ctxWith({ listActivity: { method: 'GET', path: '/a' } }), 'ERR-S2S-USER-IDENTIFIER-MULTIPLE').map((o) => o.op);
    expect(withPath).toContain('listActivity');
    // Writes carry the body a successful call would send.
    expect(identityRowOperations(ctx, 'ERR-S2S-USER-NOT-FOUND').find((o) => o.op === 'createVirtualCard')?.body).toMatchObject({ card_name: expect.any(String) });
  });

  it('under --safe tries reads only: no write, not even one a conforming target refuses', async () => {
    const ctx = { ...(await ctxWith({})), safeMode: true } as CheckContext;
    const ops = identityRowOperations(ctx, 'ERR-S2S-USER-NOT-FOUND').map((o) => o.op);
    expect(ops).toEqual(expect.arrayContaining(['getUserV1', 'getUserV2', 'listCards', 'listWallets']));
    for (const op of ops) expect(ctx.model.operations.get(op as never)?.method.toLowerCase()).toBe('get');
  });

  it('gives the identity-provider rows both operations the rule names, retail registration with its body', async () => {
    const ops = ownRowOperations(await ctxWith({}), 'ERR-IDP-ID-TOKEN-EXPIRED', { registerRetailUser: { country: 'DE' } });
    expect(ops.map((o) => o.op).sort()).toEqual(['authorizeUser', 'registerRetailUser']);
    expect(ops.find((o) => o.op === 'registerRetailUser')?.label).toBe('POST /api/v1/user/retail (registerRetailUser)');
  });
});

describe('rowOperations by family (rows on every operation they apply to)', () => {
  const names = (ops: { op: string }[]) => ops.map((o) => o.op);

  it('X-Chain-Id: every S2S operation the model lists the header as required on, the user-agnostic ones without it left out', async () => {
    const ctx = await ctxWith({});
    const ops = names(rowOperations(ctx, 'ERR-S2S-CHAIN-ID-MISSING', 'chain'));
    for (const op of ops) expect(requiresChain(ctx, ctx.model.operation(op as never)), op).toBe(true);
    // Every operation of the identity rows is a user call, so the header row runs there too.
    expect(ops).toEqual(expect.arrayContaining(names(identityRowOperations(ctx, 'ERR-S2S-USER-IDENTIFIER-MISSING'))));
    expect(ops).toContain('createUserV1');
    for (const out of ['createUserV2', 'getConfig', 'getValidationRules', 'authorizeUser', 'registerRetailUser']) expect(ops).not.toContain(out);
  });

  it('S2S token rows: reads, writes with a shown body (those that create something included), user creation and the S2S form of authorize; money movers out', async () => {
    const ctx = await ctxWith({});
    const ops = rowOperations(ctx, 'ERR-S2S-TOKEN-EXPIRED', 's2s-token');
    for (const o of ops) expect(ctx.model.operation(o.op).movesMoney, o.op).toBe(false);
    expect(names(ops)).toEqual(expect.arrayContaining(['getConfig', 'getValidationRules', 'listWithdrawalRequests', 'getFullStatement', 'estimateFx', 'validateRetailUser', 'createUserV1', 'createUserV2']));
    // Issue 33 item 9: user-scoped writes that create something, and authorize (S2S form).
    expect(names(ops)).toEqual(expect.arrayContaining(['createVirtualCard', 'createXrplAccount', 'createBankAccount', 'authorizeUser']));
    for (const out of ['executeCardTransfer', 'estimateCardTransfer', 'createRecipientV2', 'registerRetailUser', 'blockCard']) expect(names(ops)).not.toContain(out);
    // Under --safe: reads only (authorize is a POST).
    const safe = names(rowOperations({ ...ctx, safeMode: true } as CheckContext, 'ERR-S2S-TOKEN-EXPIRED', 's2s-token'));
    for (const op of safe) expect(ctx.model.operation(op as never).method.toLowerCase(), op).toBe('get');
    // The card transfer estimate joins once its body is built from the earlier steps (row-steps.ts).
    const body = { payment_details_id: 'pd-1', amount: '10.00', currency: 'EUR' };
    const withSteps = rowOperations(ctx, 'ERR-S2S-TOKEN-EXPIRED', 's2s-token', { estimateCardTransfer: body });
    expect(withSteps.find((o) => o.op === 'estimateCardTransfer')?.body).toEqual(body);
  });

  it('user-token rows: every operation accepting a user token whose request can be made valid, money movers out', async () => {
    const ctx = await ctxWith({});
    const ops = names(rowOperations(ctx, 'ERR-USER-TOKEN-EXPIRED', 'user-token'));
    for (const op of ops) expect(ctx.model.operation(op as never).auth, op).toContain('user');
    expect(ops).toEqual(expect.arrayContaining(['getUserV1', 'getUserV2', 'listCards', 'createVirtualCard', 'getFullStatement', 'estimateFx', 'validateRetailUser']));
    for (const out of ['executeCardTransfer', 'executeBankTransfer', 'blockCard']) expect(ops).not.toContain(out);
  });

  it('user-token walk (AUTH-USER-TOKEN-USE): every x-auth user operation, path parameters made up, bodies empty where not shown (money movers always); --safe keeps x-mutates false only', async () => {
    const ctx = await ctxWith({ blockCard: { method: 'POST', path: '/cards/{card_id}/block' }, listActivity: { method: 'GET', path: '/a' } });
    const ops = userTokenRoutes(ctx);
    const expected = [...ctx.model.operations.values()]
      .filter((o) => o.server === 'api' && o.auth.includes('user') && !o.authUnspecified && (!o.pathUnspecified || o.operationId === 'blockCard' || o.operationId === 'listActivity'))
      .map((o) => o.operationId).sort();
    expect(names(ops).sort()).toEqual(expected);
    expect(names(ops)).toEqual(expect.arrayContaining(['getUserV1', 'listCards', 'createVirtualCard', 'createRecipientV2', 'initBankAccount', 'blockCard', 'listActivity']));
    // A money mover names no transfer: an empty body, so even a faulty target moves nothing.
    expect(ops.find((o) => o.op === 'executeCardTransfer')?.body).toEqual({});
    expect(ops.find((o) => o.op === 'blockCard')?.params).toEqual({ card_id: expect.any(String) });
    expect(ops.find((o) => o.op === 'createRecipientV2')?.body).toEqual({});
    const safe = userTokenRoutes({ ...ctx, safeMode: true } as CheckContext);
    expect(safe.length).toBeGreaterThan(5);
    for (const o of safe) expect(ctx.model.operation(o.op).mutates, o.op).toBe(false);
    expect(names(safe)).not.toContain('blockCard');
  });
});
