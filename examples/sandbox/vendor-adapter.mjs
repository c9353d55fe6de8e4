// A control adapter written as a JS module: every control operation of spec/control.yaml mapped onto a
// vendor's own sandbox-simulation API (the loopback vendor of examples/sandbox/vendor.ts). Copy it and
// change the calls for your vendor. Name it in the profile: "control_adapter": "vendor-adapter.mjs"
// (relative to the profile file), or pass --control-adapter vendor-adapter.mjs.
//
// THE CONTRACT (docs/validate-a-vendor-sandbox.md, "JS adapter contract"; types: ControlModule and
// ControlModuleOperation, exported by the package):
//
// - Export `operations` (or a default export holding `operations`): an object whose keys are
//   operationIds of spec/control.yaml. An unknown key stops the run before any check (exit 2, naming
//   the file and /operations/<key>). Leave out what your vendor cannot do: the checks that need it skip,
//   naming the operation.
// - Each operation is `async (input, { http, profile }) => result`.
//   - `input` is `{ params, body }`: `params` holds the operation's path parameters, `body` its
//     request-body fields, under the names spec/control.yaml gives them (advanceClock:
//     `body.seconds`; create3dsChallenge: `params.user_id`, `body.amount`, `body.currency`, ...).
//     Either may be absent when the operation has none.
//   - `http.send({ method, path, query, headers, body })` sends one request and resolves to
//     `{ status, headers, text, json, durationMs }` (json undefined when the answer is not JSON). Give
//     `path` as an absolute URL for the vendor. The request goes through the calling check's client: it
//     is recorded with the check, shown in its report with secrets masked (Bearer values, JWTs, the
//     profile's secrets) and bounded in time and size. It resolves for any HTTP status: deciding what
//     is an error is yours. It rejects (a TransportError) when the vendor cannot be reached; let that
//     propagate: the check is then reported blocked by control:<operationId>, never failed.
//   - `profile` is the resolved target profile (base_url, clients, ...).
// - Return the operation's success body in the shape spec/control.yaml gives it (advanceClock:
//   `{ now }` in Unix seconds; create3dsChallenge: `{ transaction_id, expires_at }`; signChallenge:
//   `{ signed_challenge }`; createWithdrawalRequest: the WithdrawalRequest), or nothing for the
//   operations that answer 204. Whatever you return counts as success.
// - To report failure, THROW an Error saying what the vendor answered. Never return an error body: it
//   would be taken as success. The run reports the throw against the operation (the check cannot
//   judge a rule it could not set up) and the exit code is non-zero.

/** One call to the vendor's simulation API; throws with the operation and the vendor's answer unless the status is expected. */
async function vendor(http, operation, method, path, { body, expect = [200, 201, 202, 204] } = {}) {
  // Read at call time (a test sets them after loading the module). The key travels as a Bearer value,
  // which reports mask by shape.
  const base = process.env.VENDOR_URL ?? 'http://127.0.0.1:8090';
  const headers = { authorization: `Bearer ${process.env.VENDOR_API_KEY ?? ''}` };
  const res = await http.send({ method, path: `${base}${path}`, headers, body });
  if (!expect.includes(res.status)) {
    const why = res.json?.error?.message ?? res.text.slice(0, 200);
    throw new Error(`${operation}: vendor ${method} ${path} answered HTTP ${res.status}: ${why}`);
  }
  return res.json;
}

const unixSeconds = (iso) => Math.floor(Date.parse(iso) / 1000);
const user = (input) => encodeURIComponent(input.params.user_id);

/** section 3 status names -> the vendor's state names */
const SEPA_STATES = {
  ActivationNotStarted: 'NOT_STARTED',
  ExternalProviderVerificationRequired: 'WALLET_LINK_REQUIRED',
  ExternalProviderRegistrationPending: 'PROVIDER_PENDING',
  InProgress: 'IN_PROGRESS',
  Active: 'ACTIVE',
};

/** section 6 webhook names (triggerWebhook's kind) -> the vendor's test-event types */
const EVENTS = {
  user: 'user.updated',
  '3ds': 'threeds.challenge_created',
  'erc-withdrawals': 'withdrawal.requested',
  recipients: 'recipient.crypto_details_added',
  'debt-cases': 'debt_case.opened',
  corporations: 'corporation.updated',
  card_limit: 'card.limit_changed',
};

/** @type {import('baas-conform').ControlModule['operations']} */
export const operations = {
  // { body: { seconds } } -> { now } (Unix seconds). The vendor wants an ISO 8601 duration and answers an ISO time.
  async advanceClock(input, { http }) {
    const json = await vendor(http, 'advanceClock', 'POST', '/sandbox/clock', { body: { advance_by: `PT${input.body.seconds}S` } });
    return { now: unixSeconds(json.now) };
  },

  // {} -> { now }: the run calls it once at its end to undo its clock moves (the next run starts at real time).
  async resetClock(_input, { http }) {
    const json = await vendor(http, 'resetClock', 'DELETE', '/sandbox/clock');
    return { now: unixSeconds(json.now) };
  },

  // Two calls: the vendor creates a 3DS challenge on a card, so find the user's test card (or issue one) first.
  async create3dsChallenge(input, { http }) {
    const { cards } = await vendor(http, 'create3dsChallenge', 'GET', `/sandbox/users/${user(input)}/cards`);
    const card = cards[0] ?? (await vendor(http, 'create3dsChallenge', 'POST', `/sandbox/users/${user(input)}/cards`, { expect: [201] })).card;
    // amount and currency are optional inputs: leave the vendor's field out when they are absent.
    const amount = input.body?.amount === undefined ? undefined : { value_minor: Math.round(input.body.amount * 100), currency: input.body.currency ?? 'EUR' };
    const { challenge } = await vendor(http, 'create3dsChallenge', 'POST', `/sandbox/cards/${encodeURIComponent(card.id)}/3ds-challenges`, { body: amount ? { amount } : {}, expect: [201] });
    return { transaction_id: challenge.id, expires_at: unixSeconds(challenge.expires_at) };
  },

  async setSepaCapabilityStatus(input, { http }) {
    const state = SEPA_STATES[input.body.status];
    if (!state) throw new Error(`setSepaCapabilityStatus: no vendor state for ${input.body.status}`);
    await vendor(http, 'setSepaCapabilityStatus', 'POST', `/sandbox/users/${user(input)}/sepa-status`, { body: { state } });
  },

  // Two calls: the provider's "account opened" event is sent to the user's SEPA account, so look its id up
  // first. Called for users put into InProgress by setSepaCapabilityStatus AND by the public init/complete path.
  async completeSepaActivation(input, { http }) {
    const { account } = await vendor(http, 'completeSepaActivation', 'GET', `/sandbox/users/${user(input)}/sepa-account`);
    await vendor(http, 'completeSepaActivation', 'POST', `/sandbox/sepa-accounts/${encodeURIComponent(account.id)}/events`, { body: { type: 'ACCOUNT_OPENED' } });
  },

  // The input decides the method: link (POST) or unlink (DELETE).
  async setPrimaryWallet(input, { http }) {
    if (input.body.present) await vendor(http, 'setPrimaryWallet', 'POST', `/sandbox/users/${user(input)}/primary-wallet`, { expect: [201] });
    else await vendor(http, 'setPrimaryWallet', 'DELETE', `/sandbox/users/${user(input)}/primary-wallet`, { expect: [204] });
  },

  async signChallenge(input, { http }) {
    const json = await vendor(http, 'signChallenge', 'POST', `/sandbox/users/${user(input)}/primary-wallet/signatures`, { body: { payload: input.body.challenge } });
    return { signed_challenge: json.signature, wallet_address: json.signer };
  },

  async createWithdrawalRequest(input, { http }) {
    const to = input.body?.destination_address;
    const json = await vendor(http, 'createWithdrawalRequest', 'POST', `/sandbox/users/${user(input)}/withdrawal-requests`, { body: to === undefined ? {} : { to }, expect: [201] });
    return json.withdrawal_request;
  },

  async completeActivity(input, { http }) {
    await vendor(http, 'completeActivity', 'POST', `/sandbox/transfers/${encodeURIComponent(input.params.activity_id)}/settle`);
  },

  async triggerWebhook(input, { http }) {
    const type = EVENTS[input.params.kind];
    if (!type) throw new Error(`triggerWebhook: no vendor test event for kind ${input.params.kind}`);
    await vendor(http, 'triggerWebhook', 'POST', `/sandbox/users/${user(input)}/events`, { body: { type }, expect: [202] });
  },

  // Run set-up, called once per run (the engine's webhook receiver and test identity provider). On a
  // vendor that sets these in a dashboard, leave them out and use the profile's webhooks and idp instead.
  async setWebhookBaseUrl(input, { http }) {
    await vendor(http, 'setWebhookBaseUrl', 'PUT', '/sandbox/settings/webhook-endpoint', { body: { url: input.body.base_url } });
  },

  async setIdpConfig(input, { http }) {
    const { client_id, app_id, jwks_url } = input.body;
    await vendor(http, 'setIdpConfig', 'PUT', '/sandbox/settings/identity-provider', { body: { client_id, app_id, jwks_url } });
  },

  async clearIdpConfig(input, { http }) {
    await vendor(http, 'clearIdpConfig', 'DELETE', `/sandbox/settings/identity-provider/${encodeURIComponent(input.body.app_id)}`, { expect: [204] });
  },
};
