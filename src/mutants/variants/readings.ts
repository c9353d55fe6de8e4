// Benign variants for the recorded readings: answers a sentence of the spec allows that a check
// used to refuse. Each must stay clean; where the answer may hide a fault the check warns instead
// (the rule's `readings` in spec/rules, --strict fails it), and a warning is not a false positive.

import { randomUUID } from 'node:crypto';
import { proxyError } from '../proxy-edits.ts';
import { field, is2xx, isObject, JSON_TYPE, onNonRowTokenError, onOk, restatus } from '../transforms.ts';
import { benign, faults, op, waiting, type VariantSpec } from '../variant.ts';

export function readingsVariants(): VariantSpec[] {
  return [
    // Issue 23 readings. Section 2: "Card formats are virtual and plastic" (spelling on the wire not fixed).
    benign('benign.cards.format-capitalised', 'card formats come capitalised ("Virtual")', {
      transform: onOk(['createVirtualCard', 'listCards'], (b) => {
        const data = field(b, 'data');
        for (const c of Array.isArray(data) ? data : [b]) {
          const card = field(c, 'card_data');
          if (isObject(card) && card.format === 'virtual') card.format = 'Virtual';
        }
      }),
    }),
    // Section 4: the recipient create answer shows payment_details.id only (reading personal-info-when-present).
    benign('benign.recipients.no-personal-info', 'the recipient create answer carries no personal_info', {
      transform: onOk(['createRecipientV2'], (b) => void (isObject(b) && delete b.personal_info)),
    }),
    // Section 2: bank account detail fields are not shown (EVENT-BANK-ACCOUNT-DETAILS reading details-tied: warns).
    // With no bank account list (its path is not shown) the webhook cannot be tied to the activation: a warning.
    benign('benign.bank-account-webhook.no-details-id', `the bank account webhook carries the user and the IBAN but no details_id, and ${op('listBankAccounts')} lists no account yet (when an account is listed is not shown)`, {
      transform: onOk(['listBankAccounts'], (b) => void (isObject(b) && Array.isArray(b.data) && (b.data = []))),
    }, {
      webhook: (path, b, ctx) => {
        if (path !== ctx.profile.webhook_paths?.bank_account || !isObject(b)) return b;
        const { details_id: _d, ...rest } = b;
        return rest;
      },
    }),
    // Section 6: activity webhook payloads are not shown (reading activity-reference): an envelope naming the activity as data.id.
    benign('benign.activity-webhook.enveloped', 'activity webhooks come as { event, data } with the activity under data, named by id only (no activity_id)', {}, {
      webhook: (_p, b, _ctx, id) => {
        if (id !== 'activities' || !isObject(b)) return b;
        const { activity_id: _a, ...data } = b;
        return { event: 'activity.updated', data };
      },
    }),
    // Section 5: X-Chain-Id is required and carries a numeric chain id; refusing another value is not said.
    benign('benign.chain.non-numeric-accepted', 'a present X-Chain-Id is accepted whatever its value, numeric or not (warns under AUTH-CHAIN-ID-REQUIRED non-numeric-value)', faults('chain.any-value')),
    // Section 4 lists id, user_id, user_address, wallet_address on user reads (spec/openapi.yaml
    // x-checked-when-present: email, country).
    benign('benign.user-read.no-email', `user reads (${op('getUserV1')}, ${op('getUserV2')}, retail validate) carry neither email nor country`, {
      transform: onOk(['getUserV1', 'getUserV2', 'validateRetailUser'], (b) => {
        if (!isObject(b)) return;
        delete b.email;
        delete b.country;
      }),
    }),
    // Section 2: user_address is the EOA; section 5: "Email and wallet come from the tokens".
    benign('benign.idp.user-address-eoa', 'retail registration takes the EOA the identity token links (type wallet) as user_address, not the smart_wallet', faults('idp.user-address-eoa')),
    // Sections 1 and 2: a user has Smart Wallets; no provisioning time is shown (ENDPOINT-WALLETS reading
    // provisioning-time). Every check that needs a listed wallet skips; none fails.
    waiting(
      benign('benign.wallets.never-listed', `${op('listWallets')} lists no wallet (provisioning takes longer than any check waits)`, {
        transform: onOk(['listWallets'], (b) => (Array.isArray(b) ? [] : isObject(b) && Array.isArray(b.data) ? { ...b, data: [] } : b)),
      }),
    ),
    // Section 4: "the client library also sends an optional audience string" (no value shown).
    benign('benign.token.audience-validated', `${op('createToken')} refuses an audience other than the one its profile documents (request_templates.createToken.audience)`, faults('token.audience-validated')),
    // Section 3: Active, "details are retrieved"; section 2: details_id is the order result.
    benign('benign.sepa.active.new-details-id', `every ${op('createBankAccount')} {Sepa} when Active answers a new details_id (warns under STATE-SEPA-ACTIVE-RETRIEVE same-details-id)`, faults('sepa.active-new-details-id')),
    // Section 4 lists the four account types; who may order Ach, FasterPayment or Spei is not shown.
    // Eligibility depends on the user, so it is judged once the request would otherwise succeed.
    benign('benign.bank.types-refused', `${op('createBankAccount')} refuses Ach, FasterPayment and Spei with 400 ErrorNotSupported (warns under ENDPOINT-BANK-ACCOUNT-TYPES eligibility-refusal)`, {}, {
      response(req, res) {
        if (req.operationId === 'createBankAccount' && is2xx(res.status) && ['Ach', 'FasterPayment', 'Spei'].includes(String(field(req.json, 'account_type')))) {
          return proxyError(400, 'ErrorNotSupported', 'This account type is not available for the user', 'account_type');
        }
      },
    }),
    // Section 4 shows no answer to an account_type outside the four.
    // Only where the reference refused the value itself (its error names account_type), not another fault of the request.
    benign('benign.bank.other-type-accepted', `${op('createBankAccount')} accepts an account_type outside the four and answers { details_id } (warns under ENDPOINT-BANK-ACCOUNT-TYPES other-type)`, {}, {
      response(req, res) {
        const namesType = JSON.stringify(field(res.json, 'error_details') ?? []).includes('account_type');
        const type = field(req.json, 'account_type');
        if (req.operationId === 'createBankAccount' && res.status === 400 && namesType && typeof type === 'string' && !['Sepa', 'Ach', 'FasterPayment', 'Spei'].includes(type)) {
          const body = { details_id: randomUUID() };
          return { status: 200, headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(body), json: body };
        }
      },
    }),
    // Section 3: "Close is terminal"; card states and list contents are not shown.
    benign('benign.cards.closed-delisted-later', `${op('listCards')} lists a closed card once, then leaves it out`, { transform: closedDelistedLater() }),
    // Section 7: no row shows the answer to a wrongly-typed token field.
    benign('benign.token.wrong-type-500', `${op('createToken')} answers a non-string client_id or client_secret with 500 ErrorInternal (CategoryInternalFailure; warns under ERR-BODY-SHAPE wrong-type-status)`, {
      transform: onNonRowTokenError((b, res) => {
        restatus(b, res, 500);
        b.error_reason = 'ErrorInternal';
      }),
    }),
  ];
}

/** A card listed as Closed is dropped from every later GET /api/v1/cards answer. */
function closedDelistedLater() {
  const seenClosed = new Set<string>();
  return onOk(['listCards'], (b) => {
    if (!isObject(b) || !Array.isArray(b.data)) return;
    const data = b.data.filter((c) => !(isObject(c) && seenClosed.has(String(c.id))));
    for (const c of b.data) if (isObject(c) && c.status === 'Closed') seenClosed.add(String(c.id));
    return { ...b, data };
  });
}
