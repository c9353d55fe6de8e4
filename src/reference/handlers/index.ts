// The handler of every operation of spec/openapi.yaml, keyed by operationId. `satisfies
// Record<OperationId, ...>` makes the table total: a new operation in the spec is a compile error
// here until it gets a handler or an explicit NOT_SERVED. Paths, methods and auth modes are not
// here: routes.ts joins this table with model.operations.

import type { OperationId } from '../../model/types.ts';
import { cardAction, createVirtualCard, decide3ds, list3ds, listCards } from './cards.ts';
import { completeBankAccount, createBankAccount, initBankAccount } from './bank-accounts.ts';
import type { HandlerSpec } from './common.ts';
import { tokenizeCard } from './pci.ts';
import { estimateCorridorTransfer, getCardCvv, getCardPan, listBankAccounts, requestSmsCode, verifySmsCode } from './sensitive.ts';
import { authorize, createToken } from './token.ts';
import { createRecipient, deleteRecipient, estimateTransfer, getRecipient, executeTransfer, getActivity, listActivity, statement } from './transfers.ts';
import { createUser, getConfig, getUserV1, getUserV2, getValidationRules, registerRetail, validateRetail } from './users.ts';
import { createXrplAccount, estimateFx, getWallet, listWallets, listWithdrawals } from './wallets.ts';

/** An operation the spec names without its path or payloads and the reference does not implement. */
const NOT_SERVED = null;

export const HANDLERS = {
  // Section 4 table.
  createToken: { run: createToken, body: 'json-or-form' }, // the reference also reads form bodies (OAuth clients send them)
  authorizeUser: { run: authorize },
  registerRetailUser: { run: registerRetail },
  createUserV1: { run: createUser },
  getUserV1: { run: getUserV1 },
  createUserV2: { run: createUser },
  getUserV2: { run: getUserV2 },
  validateRetailUser: { run: validateRetail },
  getConfig: { run: getConfig },
  getValidationRules: { run: getValidationRules },
  getWallet: { run: getWallet },
  listWallets: { run: listWallets },
  createXrplAccount: { run: createXrplAccount },
  listCards: { run: listCards },
  createVirtualCard: { run: createVirtualCard },
  list3dsRequests: { run: list3ds },
  estimateCardTransfer: { run: estimateTransfer },
  executeCardTransfer: { run: executeTransfer },
  createRecipientV2: { run: createRecipient },
  tokenizeCard: { run: tokenizeCard },
  listWithdrawalRequests: { run: listWithdrawals },
  estimateFx: { run: estimateFx },
  getFullStatement: { run: statement },
  createBankAccount: { run: createBankAccount },
  initBankAccount: { run: initBankAccount },
  completeBankAccount: { run: completeBankAccount },
  // Paths not shown: served on the reference's own paths (DEFAULT_OPERATION_PATHS, published in the profile).
  approve3ds: { run: decide3ds('Approved') },
  decline3ds: { run: decide3ds('Declined') },
  listActivity: { run: listActivity },
  getActivity: { run: getActivity },
  activateCard: { run: cardAction('activate') },
  blockCard: { run: cardAction('block') },
  unblockCard: { run: cardAction('unblock') },
  closeCard: { run: cardAction('close') },
  // Named by section 4 without path or payload; nothing to serve.
  getActivityStatement: NOT_SERVED,
  renameCard: NOT_SERVED,
  changeCardLimit: NOT_SERVED,
  listCardTransactions: NOT_SERVED,
  issuePlasticCard: NOT_SERVED,
  listCardDeliveryCountries: NOT_SERVED,
  listCardDeliveryMethods: NOT_SERVED,
  getCardOrderFees: NOT_SERVED,
  getCardOrderFeeInvoice: NOT_SERVED,
  getCardPan: { run: getCardPan },
  getCardCvv: { run: getCardCvv },
  getCardPin: NOT_SERVED,
  requestSmsCode: { run: requestSmsCode },
  verifySmsCode: { run: verifySmsCode },
  verifySignature: NOT_SERVED,
  listBankAccounts: { run: listBankAccounts },
  estimateBankTransfer: NOT_SERVED,
  executeBankTransfer: NOT_SERVED,
  estimateCorridorTransfer: { run: estimateCorridorTransfer },
  executeCorridorTransfer: NOT_SERVED,
  listRecipients: NOT_SERVED,
  getRecipient: { run: getRecipient },
  filterRecipients: NOT_SERVED,
  createRecipient: NOT_SERVED,
  updateRecipient: NOT_SERVED,
  deleteRecipient: { run: deleteRecipient },
  createRecipientPaymentDetails: NOT_SERVED,
  updateRecipientPaymentDetails: NOT_SERVED,
  deleteRecipientPaymentDetails: NOT_SERVED,
  incrementRecipientUsageCounter: NOT_SERVED,
  updatePhoneNumber: NOT_SERVED,
  confirmPhoneNumberOtp: NOT_SERVED,
  uploadKycDocument: NOT_SERVED,
  getHostedVerificationToken: NOT_SERVED,
  getHostedVerificationLink: NOT_SERVED,
  getKycSharingToken: NOT_SERVED,
  setKycSharingToken: NOT_SERVED,
  updateSupportDeskId: NOT_SERVED,
  getRates: NOT_SERVED,
  estimateCardTopUp: NOT_SERVED,
  executeCardTopUp: NOT_SERVED,
  estimateCardWithdrawal: NOT_SERVED,
  executeCardWithdrawal: NOT_SERVED,
  registerCorporate: NOT_SERVED,
  loginCorporate: NOT_SERVED,
} satisfies Record<OperationId, HandlerSpec | null>;

/** Default locations of the served operations whose path the spec does not show (published in the profile). */
export const DEFAULT_OPERATION_PATHS: Partial<Record<OperationId, { method: string; path: string }>> = {
  approve3ds: { method: 'POST', path: '/api/v1/cards/3ds/requests/{transaction_id}/approve' },
  decline3ds: { method: 'POST', path: '/api/v1/cards/3ds/requests/{transaction_id}/decline' },
  activateCard: { method: 'POST', path: '/api/v1/cards/{card_id}/activate' },
  blockCard: { method: 'POST', path: '/api/v1/cards/{card_id}/block' },
  unblockCard: { method: 'POST', path: '/api/v1/cards/{card_id}/unblock' },
  closeCard: { method: 'POST', path: '/api/v1/cards/{card_id}/close' },
  listActivity: { method: 'GET', path: '/api/v1/activity' },
  getActivity: { method: 'GET', path: '/api/v1/activity/{activity_id}' },
  getRecipient: { method: 'GET', path: '/api/v2/recipients/{recipient_id}' },
  deleteRecipient: { method: 'DELETE', path: '/api/v2/recipients/{recipient_id}' },
  getCardPan: { method: 'GET', path: '/api/v1/cards/{card_id}/pan' },
  getCardCvv: { method: 'GET', path: '/api/v1/cards/{card_id}/cvv' },
  requestSmsCode: { method: 'POST', path: '/api/v1/confirmation/sms' },
  verifySmsCode: { method: 'POST', path: '/api/v1/confirmation/sms/verify' },
  listBankAccounts: { method: 'GET', path: '/api/v1/bank/account-list' },
  estimateCorridorTransfer: { method: 'POST', path: '/api/v1/bank/corridor/estimate' },
};
