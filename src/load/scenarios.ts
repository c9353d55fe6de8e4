// Load scenarios as data: a weighted mix of documented operations (ids from spec/openapi.yaml; paths,
// headers and request facts come from the model), which statuses are the expected outcome rather than
// errors, and which contract checks run on the responses. `setup` (undici) gets tokens and a user.

import { s2sUserHeaders } from '../client/credentials.ts';
import type { Model, OperationId } from '../model/index.ts';
import { createUser, newUserBody, operation, s2sToken, tokenBody, type SetupHttp } from './setup.ts';
import { TokenKeeper, refreshBufferSec } from './tokens.ts';

export interface LoadRequest {
  /** operationId from spec/openapi.yaml. */
  op: string;
  method: string;
  /** Operation path (from the model); the runner prefixes the base_url path. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface MixEntry {
  op: string;
  weight: number;
  /** A request for this operation; called once per send (writes get fresh bodies). */
  build(): LoadRequest;
}

export interface PreparedScenario {
  mix: MixEntry[];
  /** Run-time secrets (tokens minted in setup), masked in every output. */
  secrets: string[];
  /** What the scenario sends, for the report (no secrets). */
  sends: string;
  tokens?: TokenKeeper;
}

export interface Scenario {
  id: string;
  describe: string;
  /** Statuses that are the scenario's expected outcome, not errors (token-burst: 429). */
  expectedNon2xx: number[];
  /** Check every 429 against the section 7/8 contract (category, http_status_code). */
  check429Contract: boolean;
  /** The scenario must drive the target to 429 at least once. */
  require429: boolean;
  /** After the load, a client backing off (exponential, full jitter, Retry-After) must get through. */
  recoveryProbe: boolean;
  /** Default cap on requests when --amount is not given. */
  defaultMaxRequests?: number;
  /** Default arrival rate (req/s): the scenario runs in the open model unless told otherwise. */
  defaultArrivalRate?: number;
  setup(s: SetupHttp): Promise<PreparedScenario>;
}

const JSON_CT = { 'content-type': 'application/json' };

/** A fixed request (built once): reads with a long-lived token. */
function fixed(s: SetupHttp, op: OperationId, headers: Record<string, string>, weight = 1, body?: unknown): MixEntry {
  const { method, path } = operation(s, op);
  const req: LoadRequest = { op, method, path, headers: body === undefined ? headers : { ...JSON_CT, ...headers }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
  return { op, weight, build: () => req };
}

/** The user-identity header carrying a user id, and the chain header (section 5, from the model). */
export function userHeaders(model: Model, token: string, userId: string, chainId: string): Record<string, string> {
  return s2sUserHeaders(model, token, userId, chainId);
}

/** A request whose headers follow the token keeper (cached per token version) and whose body is fresh. */
function live(s: SetupHttp, tokens: TokenKeeper, op: OperationId, weight: number, headersFor: (token: string) => Record<string, string>, body?: () => Record<string, unknown>): MixEntry {
  const { method, path } = operation(s, op);
  const tpl = s.profile.request_templates?.[op] ?? {};
  let version = -1;
  let headers: Record<string, string> = {};
  return {
    op,
    weight,
    build() {
      const token = tokens.token();
      if (version !== tokens.version) {
        headers = body ? { ...JSON_CT, ...headersFor(token) } : headersFor(token);
        version = tokens.version;
      }
      if (!body) return { op, method, path, headers };
      const b: Record<string, unknown> = { ...body() };
      for (const [k, v] of Object.entries(tpl)) {
        if (v === null) delete b[k];
        else b[k] = v;
      }
      return { op, method, path, headers, body: JSON.stringify(b) };
    },
  };
}

let seq = 0;

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'token-burst',
    describe: 'createToken with clients[0] past the endpoint limit: 429 contract (sections 7, 8) and backoff recovery',
    expectedNon2xx: [429],
    check429Contract: true,
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
    expectedNon2xx: [],
    check429Contract: false,
    require429: false,
    recoveryProbe: false,
    async setup(s) {
      const token = await s2sToken(s, s.profile.clients[0]);
      const userId = await createUser(s, token);
      const { method, path } = operation(s, 'getUserV1');
      return { mix: [fixed(s, 'getUserV1', userHeaders(s.model, token, userId, s.profile.chain_id))], secrets: [token], sends: `getUserV1 ${method} ${path} (S2S + user id + chain)` };
    },
  },
  {
    id: 'mixed-reads',
    describe: 'Round-robin reads: config, validation rules, user v1 and v2, wallets, cards',
    expectedNon2xx: [],
    check429Contract: false,
    require429: false,
    recoveryProbe: false,
    async setup(s) {
      const token = await s2sToken(s, s.profile.clients[0]);
      const userId = await createUser(s, token);
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
    expectedNon2xx: [],
    check429Contract: false,
    require429: false,
    recoveryProbe: false,
    defaultArrivalRate: 50,
    async setup(s) {
      const tokens = await TokenKeeper.start(s);
      const userId = await createUser(s, tokens.token());
      const user = (t: string) => userHeaders(s.model, t, userId, s.profile.chain_id);
      const agnostic = (t: string) => ({ authorization: `Bearer ${t}` });
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
