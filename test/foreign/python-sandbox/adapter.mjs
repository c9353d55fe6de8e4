// Control adapter for the Python sandbox's own simulation API (/sandbox/v1), written from
// docs/validate-a-vendor-sandbox.md ("JS adapter contract"). Settings come from the environment at call
// time: PYSANDBOX_API_URL (the sandbox_api.url the sandbox prints) and PYSANDBOX_API_KEY (its api_key).

async function sandbox(http, operation, method, path, { body, expect = [200, 201, 202] } = {}) {
  const base = process.env.PYSANDBOX_API_URL;
  if (!base) throw new Error(`${operation}: PYSANDBOX_API_URL is not set (the sandbox_api.url the sandbox printed)`);
  const headers = { authorization: `Bearer ${process.env.PYSANDBOX_API_KEY ?? ''}` };
  const res = await http.send({ method, path: `${base}${path}`, headers, body });
  if (!expect.includes(res.status)) {
    const why = res.json?.error_description ?? res.json?.detail ?? res.text.slice(0, 200);
    // The vendor's status rides along: a 4xx is a refusal (docs/validate-a-vendor-sandbox.md, JS adapter contract).
    throw Object.assign(new Error(`${operation}: sandbox ${method} ${path} answered HTTP ${res.status}: ${why}`), { status: res.status });
  }
  return res.json;
}

const seconds = (iso) => Math.floor(Date.parse(iso) / 1000);
const user = (input) => encodeURIComponent(input.params.user_id);

/** section 3 status names -> the sandbox's snake_case states */
const SEPA = {
  ActivationNotStarted: 'activation_not_started',
  ExternalProviderVerificationRequired: 'external_provider_verification_required',
  ExternalProviderRegistrationPending: 'external_provider_registration_pending',
  InProgress: 'in_progress',
  Active: 'active',
};

export const operations = {
  async advanceClock(input, { http }) {
    const json = await sandbox(http, 'advanceClock', 'POST', '/clock/advance', { body: { seconds: input.body.seconds } });
    return { now: seconds(json.current_time) };
  },

  // Called once at the end of a run that moved the clock: the sandbox's "back to real time".
  async resetClock(_input, { http }) {
    const json = await sandbox(http, 'resetClock', 'POST', '/clock/reset');
    return { now: seconds(json.current_time) };
  },

  async create3dsChallenge(input, { http }) {
    const body = { user_id: input.params.user_id };
    if (input.body?.amount !== undefined) body.amount = input.body.amount;
    if (input.body?.currency !== undefined) body.currency = input.body.currency;
    const { challenge } = await sandbox(http, 'create3dsChallenge', 'POST', '/3ds', { body, expect: [201] });
    return { transaction_id: challenge.id, expires_at: seconds(challenge.expires) };
  },

  async setSepaCapabilityStatus(input, { http }) {
    const state = SEPA[input.body.status];
    if (!state) throw new Error(`setSepaCapabilityStatus: no sandbox state for ${input.body.status}`);
    await sandbox(http, 'setSepaCapabilityStatus', 'PUT', `/users/${user(input)}/capabilities/sepa`, { body: { state } });
  },

  async setPrimaryWallet(input, { http }) {
    await sandbox(http, 'setPrimaryWallet', 'PUT', `/users/${user(input)}/primary-wallet`, { body: { enabled: Boolean(input.body.present) } });
  },

  // Two calls: the provider event is keyed by the sandbox's bank account id.
  async completeSepaActivation(input, { http }) {
    const { items } = await sandbox(http, 'completeSepaActivation', 'GET', `/users/${user(input)}/bank-accounts`);
    const account = items.find((a) => a.kind === 'Sepa' && a.state !== 'Active');
    if (!account) throw new Error(`completeSepaActivation: user ${input.params.user_id} has no SEPA account in progress`);
    await sandbox(http, 'completeSepaActivation', 'POST', `/bank-accounts/${encodeURIComponent(account.account_id)}/provision`);
  },

  // Two calls: the sandbox signs with a wallet address, the user's Primary one.
  async signChallenge(input, { http }) {
    const u = await sandbox(http, 'signChallenge', 'GET', `/users/${user(input)}`);
    const primary = u.wallets.find((w) => w.role === 'Primary');
    if (!primary) throw new Error(`signChallenge: user ${input.params.user_id} has no Primary wallet`);
    const json = await sandbox(http, 'signChallenge', 'POST', `/wallets/${primary.wallet_address}/sign`, { body: { message: input.body.challenge } });
    return { signed_challenge: json.signature, wallet_address: primary.wallet_address };
  },

  async createWithdrawalRequest(input, { http }) {
    const to = input.body?.destination_address;
    return sandbox(http, 'createWithdrawalRequest', 'POST', `/users/${user(input)}/withdrawals`, { body: to === undefined ? {} : { to }, expect: [201] });
  },

  async completeActivity(input, { http }) {
    await sandbox(http, 'completeActivity', 'POST', `/activities/${encodeURIComponent(input.params.activity_id)}/settle`);
  },

  async triggerWebhook(input, { http }) {
    await sandbox(http, 'triggerWebhook', 'POST', '/webhooks/emit', { body: { user_id: input.params.user_id, topic: input.params.kind } });
  },

  async setWebhookBaseUrl(input, { http }) {
    await sandbox(http, 'setWebhookBaseUrl', 'PUT', '/webhook-endpoint', { body: { url: input.body.base_url } });
  },

  async setIdpConfig(input, { http }) {
    const { client_id, app_id, jwks_url } = input.body;
    await sandbox(http, 'setIdpConfig', 'PUT', `/clients/${encodeURIComponent(client_id)}/identity-provider`, { body: { application_id: app_id, jwks_uri: jwks_url } });
  },
};
