// Load scenarios as data: a weighted mix of documented operations (ids from spec/openapi.yaml; paths,
// headers and request facts come from the model), which statuses are the expected outcome rather than
// errors, and which contract checks run on the responses. `setup` (undici) gets tokens and a user.

import type { OperationId } from '../model/index.ts';
import { ConfigError } from '../errors/index.ts';
import { consistencyScenario } from './consistency.ts';
import { JOURNEY_STEPS } from './journey-flow.ts';
import { fixed, live, liveUser, ONLY_2XX, userHeaders, type MixEntry, type Scenario } from './mix.ts';
import { createUser, newUserBody, operation, s2sToken, tokenBody, type SetupHttp } from './setup.ts';
import { refreshBufferSec } from './tokens.ts';

export { fixed, live, userHeaders, type LoadRequest, type MixEntry, type PreparedScenario, type Scenario } from './mix.ts';

let seq = 0;

/** An S2S token of clients[0] and a user created with it: the start of a fixed read mix. */
async function s2sUser(s: SetupHttp): Promise<{ token: string; userId: string }> {
  const token = await s2sToken(s, s.profile.clients[0]);
  return { token, userId: await createUser(s, token) };
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'token-burst',
    describe: 'createToken with clients[0] past the endpoint limit: 429 contract (sections 7, 8) and backoff recovery',
    expectedNon2xx: [429],
    contracts: ['429-shape'],
    require429: true,
    recoveryProbe: true,
    defaultMaxRequests: 20_000,
    async setup(s) {
      const c = s.profile.clients[0];
      // A first token proves the credentials (and reachability) before the burst.
      const token = await s2sToken(s, c);
      const entry = fixed(s, 'createToken', {}, 1, tokenBody(c, s.model));
      const { method, path } = operation(s, 'createToken');
      return { mix: [entry], secrets: [token], sends: `createToken ${method} ${path} (clients[0])` };
    },
  },
  {
    id: 'user-read',
    describe: 'getUserV1 with an S2S token, a user id header and the chain header for a user created in setup',
    ...ONLY_2XX,
    async setup(s) {
      const { token, userId } = await s2sUser(s);
      const { method, path } = operation(s, 'getUserV1');
      return { mix: [fixed(s, 'getUserV1', userHeaders(s.model, token, userId, s.profile.chain_id))], secrets: [token], sends: `getUserV1 ${method} ${path} (S2S + user id + chain)` };
    },
  },
  {
    id: 'mixed-reads',
    describe: 'Round-robin reads: config, validation rules, user v1 and v2, wallets, cards',
    ...ONLY_2XX,
    async setup(s) {
      const { token, userId } = await s2sUser(s);
      const agnostic = { authorization: `Bearer ${token}` };
      const user = userHeaders(s.model, token, userId, s.profile.chain_id);
      const ops: [OperationId, Record<string, string>][] = [
        ['getConfig', agnostic],
        ['getValidationRules', agnostic],
        ['getUserV1', user],
        ['getUserV2', user],
        ['listWallets', user],
        ['listCards', user],
      ];
      return { mix: ops.map(([op, h]) => fixed(s, op, h)), secrets: [token], sends: `${ops.map(([op]) => op).join(', ')} (round-robin)` };
    },
  },
  {
    id: 'timeout-budget',
    describe: 'Weighted reads and writes (user create, recipients, card create, reads) at a set arrival rate; every request must complete within the section 8 timeout budget',
    ...ONLY_2XX,
    defaultArrivalRate: 50,
    async setup(s) {
      const { tokens, user, agnostic } = await liveUser(s);
      const mix: MixEntry[] = [
        live(s, tokens, 'getUserV1', 25, user),
        live(s, tokens, 'getUserV2', 20, user),
        live(s, tokens, 'listCards', 15, user),
        live(s, tokens, 'listWallets', 10, user),
        live(s, tokens, 'getConfig', 5, agnostic),
        live(s, tokens, 'createUserV2', 9, agnostic, () => newUserBody(s.model)),
        // Individual recipient (section 2 create input) with SEPA payment details; profile.request_templates.createRecipientV2 adjusts it.
        live(s, tokens, 'createRecipientV2', 8, user, () => ({ type: 'Sepa', first_name: 'Load', last_name: `Test${++seq}`, is_business: false, sepa: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' } })),
        live(s, tokens, 'createVirtualCard', 8, user, () => ({ card_name: `load ${++seq}` })),
      ];
      const total = mix.reduce((n, m) => n + m.weight, 0);
      return {
        mix,
        secrets: tokens.issued,
        tokens,
        sends: `${mix.map((m) => `${m.op} ${Math.round((100 * m.weight) / total)}%`).join(', ')}; S2S token refreshed ${refreshBufferSec(s.model)} s before expires_at (section 8)`,
      };
    },
  },
  consistencyScenario,
  {
    id: 'journey',
    describe: 'The partner flow per virtual user with think times: token, user, user token, card, card tokenization and Card recipient, Push to Card estimate and execute, the activity webhook; percentiles per step',
    ...ONLY_2XX,
    journey: true,
    async setup(s) {
      if (!s.profile.pci_url) throw new ConfigError('load journey: the flow tokenizes a card in the card-tokenization environment (section 4 rule 3): give profile.pci_url');
      return { mix: [], secrets: [], sends: `journeys of ${JOURNEY_STEPS.join(' -> ')}` };
    },
  },
];

export function scenarioById(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id === id);
}

/** Smooth weighted round-robin (nginx): deterministic, spreads each operation evenly over the run. */
export function weightedPicker(mix: MixEntry[]): () => MixEntry {
  if (mix.length === 1) return () => mix[0];
  const current = mix.map(() => 0);
  const total = mix.reduce((n, m) => n + m.weight, 0);
  return () => {
    let best = 0;
    for (let i = 0; i < mix.length; i++) {
      current[i] += mix[i].weight;
      if (current[i] > current[best]) best = i;
    }
    current[best] -= total;
    return mix[best];
  };
}
