// One check per operation whose path the spec shows (keyed by operationId): exercise the happy
// path and validate the response against the documented schema (expectSchema also requires
// application/json). Rules: ENDPOINT-RESPONSE-SCHEMA and GENERAL-TRANSPORT-JSON.

import {
  expectSchema, asUser, authorizeRaw, completeSepa, directSepa, is2xx, sepaStates, setSepaStatus, create3ds, createUser, createUserRaw,
  createWithdrawal, expectStep, initAndSign, initSepa, readUser, requestBody, requestToken, rnd, s2sHeaders, smartWallets, tokenBody,
  userHeaders, idpHeaders, newIdpIdentity, hasControl, field, sharedUser,
} from '../kit/index.ts';
import type { CheckContext, HttpResponse, Need } from '../../src/checks/types.ts';
import { ownStep } from '../../src/checks/prerequisite.ts';
import type { Driver, OperationDrivers } from './driver.ts';
import type { OperationId } from '../../src/model/types.ts';
import { estimateTransfer, executeTransfer, pushToCardRecipient, tokenize } from './transfers.ts';
import { WALLET_LINK_NEEDS, walletLinkUser } from './bank.ts';

function schemaCheck(op: OperationId, safe: boolean, needs: Need[], exercise: (ctx: CheckContext) => Promise<HttpResponse>): Driver {
  return {
    safe,
    needs,
    async run(ctx) {
      // `op` is this check's subject: its own step failing is this check's failure; a step of another
      // operation failing (tokenize for the recipient check) blocks it.
      const res = await ownStep(op, async () => {
        const r = await exercise(ctx);
        expectStep(r, op, op);
        return r;
      });
      expectSchema(res, op);
    },
  };
}

const now = () => Math.floor(Date.now() / 1000);

async function estimate(ctx: CheckContext) {
  const user = await createUser(ctx);
  const r = await pushToCardRecipient(ctx, user);
  return { user, res: await estimateTransfer(ctx, user, r, '5.00') };
}

// The read-only ones (authorizeUser, getUserV1, getUserV2, getWallet, listWallets) read the run's
// shared user (suites/kit/users.ts sharedUser) instead of creating one each: the answer's shape does
// not depend on which registered user is read, and five registrations fewer go out.
export const drivers: OperationDrivers = {
  createToken: schemaCheck('createToken', true, [], (ctx) => requestToken(ctx, tokenBody(ctx))),
  authorizeUser: schemaCheck('authorizeUser', false, [], async (ctx) => authorizeRaw(ctx, await sharedUser(ctx))),
  registerRetailUser: schemaCheck('registerRetailUser', false, ['idp'], async (ctx) =>
    ctx.http.send({ op: 'registerRetailUser', headers: await idpHeaders(ctx, newIdpIdentity()), body: { country: 'DE' } })),
  getUserV1: schemaCheck('getUserV1', false, [], async (ctx) => readUser(ctx, 'v1', await userHeaders(ctx, await sharedUser(ctx)))),
  createUserV1: schemaCheck('createUserV1', false, [], async (ctx) =>
    createUserRaw(ctx, 'v1', await s2sHeaders(ctx), { email: rnd.email(), country: 'DE', user_address: rnd.address() })),
  getUserV2: schemaCheck('getUserV2', false, [], async (ctx) => readUser(ctx, 'v2', await userHeaders(ctx, await sharedUser(ctx)))),
  createUserV2: schemaCheck('createUserV2', false, [], async (ctx) =>
    createUserRaw(ctx, 'v2', await s2sHeaders(ctx), { email: rnd.email(), country: 'NL', user_address: rnd.address() })),
  validateRetailUser: schemaCheck('validateRetailUser', false, [], async (ctx) =>
    ctx.http.send({ op: 'validateRetailUser', headers: await userHeaders(ctx, await createUser(ctx)) })),
  getConfig: schemaCheck('getConfig', true, [], async (ctx) => ctx.http.send({ op: 'getConfig', headers: await s2sHeaders(ctx) })),
  getValidationRules: schemaCheck('getValidationRules', true, [], async (ctx) => ctx.http.send({ op: 'getValidationRules', headers: await s2sHeaders(ctx) })),
  getWallet: schemaCheck('getWallet', false, [], async (ctx) => asUser(ctx, await sharedUser(ctx), { op: 'getWallet' })),
  listWallets: schemaCheck('listWallets', false, [], async (ctx) => asUser(ctx, await sharedUser(ctx), { op: 'listWallets' })),
  createXrplAccount: schemaCheck('createXrplAccount', false, [], async (ctx) => asUser(ctx, await createUser(ctx), { op: 'createXrplAccount', body: requestBody(ctx, 'createXrplAccount', {}) })),
  listCards: schemaCheck('listCards', false, [], async (ctx) => {
    const user = await createUser(ctx);
    await asUser(ctx, user, { op: 'createVirtualCard', body: { card_name: 'schema card' } });
    return asUser(ctx, user, { op: 'listCards' });
  }),
  createVirtualCard: schemaCheck('createVirtualCard', false, [], async (ctx) => asUser(ctx, await createUser(ctx), { op: 'createVirtualCard', body: { card_name: `card ${rnd.hex(2)}` } })),
  list3dsRequests: schemaCheck('list3dsRequests', false, [], async (ctx) => {
    const user = await createUser(ctx);
    if (hasControl(ctx, 'create3dsChallenge')) await create3ds(ctx, user);
    else ctx.couldNotJudge('the schema of a listed 3DS challenge (a new user has none)', 'control operation create3dsChallenge');
    return asUser(ctx, user, { op: 'list3dsRequests' });
  }),
  estimateCardTransfer: schemaCheck('estimateCardTransfer', false, ['pci'], async (ctx) => (await estimate(ctx)).res),
  executeCardTransfer: schemaCheck('executeCardTransfer', false, ['pci'], async (ctx) => {
    const { user, res } = await estimate(ctx);
    expectStep(res, 'estimateCardTransfer', 'estimate');
    return executeTransfer(ctx, user, field(res.json, 'estimation_id'));
  }),
  createRecipientV2: schemaCheck('createRecipientV2', false, ['pci'], async (ctx) => (await pushToCardRecipient(ctx, await createUser(ctx))).res),
  tokenizeCard: schemaCheck('tokenizeCard', false, ['pci'], async (ctx) => (await tokenize(ctx)).res),
  listWithdrawalRequests: schemaCheck('listWithdrawalRequests', false, [], async (ctx) => {
    const user = await createUser(ctx);
    if (hasControl(ctx, 'createWithdrawalRequest')) await createWithdrawal(ctx, user, rnd.address());
    else ctx.couldNotJudge('the schema of a listed withdrawal request (a new user has none)', 'control operation createWithdrawalRequest');
    return asUser(ctx, user, { op: 'listWithdrawalRequests' });
  }),
  estimateFx: schemaCheck('estimateFx', false, [], async (ctx) => asUser(ctx, await createUser(ctx), { op: 'estimateFx', body: requestBody(ctx, 'estimateFx', {}, { destination_address: rnd.address() }) })),
  getFullStatement: schemaCheck('getFullStatement', false, [], async (ctx) => {
    const user = await createUser(ctx);
    const wallets = await smartWallets(ctx, user);
    return asUser(ctx, user, { op: 'getFullStatement', body: { start: now() - 86400, end: now() + 60, user_address: user.address, ...(wallets[0] ? { wallet_address: wallets[0] } : {}) } });
  }),
  createBankAccount: schemaCheck('createBankAccount', false, [], async (ctx) => {
    const user = await createUser(ctx);
    if (hasControl(ctx, 'setSepaCapabilityStatus')) {
      // Sepa from ActivationNotStarted answers { details_id } by section 3.
      await setSepaStatus(ctx, user, sepaStates(ctx).notStarted);
      return directSepa(ctx, user);
    }
    // Without the control API: the first account type this user may order (eligibility is not shown).
    const types = (ctx.model.operations.get('createBankAccount')?.requestSchema?.properties?.account_type?.enum ?? []) as string[];
    for (const t of types) {
      const res = await asUser(ctx, user, { op: 'createBankAccount', body: { account_type: t } });
      if (is2xx(res)) return res;
    }
    return ctx.skip('no account type could be ordered for a new user without the control API (eligibility is not shown)');
  }),
  initBankAccount: schemaCheck('initBankAccount', false, [...WALLET_LINK_NEEDS], async (ctx) => initSepa(ctx, await walletLinkUser(ctx))),
  completeBankAccount: schemaCheck('completeBankAccount', false, [...WALLET_LINK_NEEDS, 'control:signChallenge'], async (ctx) => {
    const user = await walletLinkUser(ctx);
    const { signed } = await initAndSign(ctx, user, 'init');
    return completeSepa(ctx, user, signed);
  }),
};


