// Load scenarios as data: what each one sends, which statuses are its expected outcome rather than
// errors, and which contract checks run on the responses. `setup` (undici) gets tokens and a user;
// the runner (run.ts) drives `requests` with autocannon.

import { createUser, s2sToken, tokenBody, type SetupHttp } from './setup.ts';

export interface LoadRequest {
  method: 'GET' | 'POST';
  /** Operation path (section 4); the runner prefixes the base_url path. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PreparedScenario {
  /** Sent in order, round-robin, on every connection. */
  requests: LoadRequest[];
  /** Run-time secrets (tokens minted in setup), masked in every output. */
  secrets: string[];
  /** What the scenario sends, for the report (no secrets). */
  sends: string;
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
  setup(s: SetupHttp): Promise<PreparedScenario>;
}

const json = { 'content-type': 'application/json' };

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'token-burst',
    describe: 'POST /api/v1/token with clients[0] past the endpoint limit: 429 contract (sections 7, 8) and backoff recovery',
    expectedNon2xx: [429],
    check429Contract: true,
    require429: true,
    recoveryProbe: true,
    defaultMaxRequests: 20_000,
    async setup(s) {
      const c = s.profile.clients[0];
      // A first token proves the credentials (and reachability) before the burst.
      const token = await s2sToken(s, c);
      return {
        requests: [{ method: 'POST', path: '/api/v1/token', headers: json, body: JSON.stringify(tokenBody(c)) }],
        secrets: [token],
        sends: 'POST /api/v1/token (clients[0], client_credentials)',
      };
    },
  },
  {
    id: 'user-read',
    describe: 'GET /api/v1/user with an S2S token, X-User-Id and X-Chain-Id for a user created in setup',
    expectedNon2xx: [],
    check429Contract: false,
    require429: false,
    recoveryProbe: false,
    async setup(s) {
      const token = await s2sToken(s, s.profile.clients[0]);
      const userId = await createUser(s, token);
      return {
        requests: [{ method: 'GET', path: '/api/v1/user', headers: { authorization: `Bearer ${token}`, 'x-user-id': userId, 'x-chain-id': s.profile.chain_id } }],
        secrets: [token],
        sends: 'GET /api/v1/user (S2S + X-User-Id + X-Chain-Id)',
      };
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
      const user = { ...agnostic, 'x-user-id': userId, 'x-chain-id': s.profile.chain_id };
      const paths: [string, Record<string, string>][] = [
        ['/api/v1/config', agnostic],
        ['/api/v1/validation/rules', agnostic],
        ['/api/v1/user', user],
        ['/api/v2/user', user],
        ['/api/v1/wallets', user],
        ['/api/v1/cards', user],
      ];
      return {
        requests: paths.map(([path, headers]) => ({ method: 'GET' as const, path, headers })),
        secrets: [token],
        sends: `GET ${paths.map(([p]) => p).join(', ')} (round-robin)`,
      };
    },
  },
];

export function scenarioById(id: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.id === id);
}
