// The parts a load scenario is made of: the requests it sends (a weighted mix of documented operations,
// fixed or built per send with fresh bodies and the current token), what it expects, and what it checks.

import { s2sUserHeaders } from '../client/credentials.ts';
import type { Model, OperationId } from '../model/index.ts';
import type { LoadContractId } from './contract.ts';
import { applyRequestTemplate } from '../profile/index.ts';
import { createUser, operation, type SetupHttp } from './setup.ts';
import { TokenKeeper } from './tokens.ts';
import type { ConsistencyResult } from './types.ts';

export interface LoadRequest {
  /** operationId from spec/openapi.yaml. */
  op: string;
  method: string;
  /** Operation path (from the model); the runner prefixes the base_url path. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The user a spread write acts for (owners.ts); the engine hands the built request back to observe untouched. */
  owner?: string;
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
  /** 2xx answers of these operations are handed to `observe` with the request (a scenario that records its writes). */
  observeOps?: string[];
  observe?(req: LoadRequest, status: number, body: string): void;
  /** After the load phase: read back what was recorded (consistency). */
  verify?(): Promise<ConsistencyResult>;
}

export interface Scenario {
  id: string;
  describe: string;
  /** Statuses that are the scenario's expected outcome, not errors (token-burst: 429). */
  expectedNon2xx: number[];
  /** The contracts its answers are held to (ids registered in contract.ts). */
  contracts: readonly LoadContractId[];
  /** The scenario must drive the target to 429 at least once. */
  require429: boolean;
  /** After the load, a client backing off (exponential, full jitter, Retry-After) must get through. */
  recoveryProbe: boolean;
  /** Runs the partner flow per virtual user (journey.ts) instead of a request mix. */
  journey?: boolean;
  /** Default cap on requests when --amount is not given. */
  defaultMaxRequests?: number;
  /** Default arrival rate (req/s): the scenario runs in the open model unless told otherwise. */
  defaultArrivalRate?: number;
  setup(s: SetupHttp): Promise<PreparedScenario>;
}

export const JSON_CT = { 'content-type': 'application/json' };

/** A scenario whose every answer should be 2xx: no 429 is expected, checked against the contract or probed. */
export const ONLY_2XX: Pick<Scenario, 'expectedNon2xx' | 'contracts' | 'require429' | 'recoveryProbe'> = {
  expectedNon2xx: [],
  contracts: [],
  require429: false,
  recoveryProbe: false,
};

export interface LiveUser {
  tokens: TokenKeeper;
  userId: string;
  /** User-scoped headers (S2S token, user id, chain) for the current token. */
  user(token: string): Record<string, string>;
  /** Headers of a call that names no user: the S2S token alone. */
  agnostic(token: string): Record<string, string>;
}

/** The start of a live mix: a token keeper (refreshed through the run) and a user created with its token. */
export async function liveUser(s: SetupHttp): Promise<LiveUser> {
  const tokens = await TokenKeeper.start(s);
  const userId = await createUser(s, tokens.token());
  return {
    tokens,
    userId,
    user: (t) => userHeaders(s.model, t, userId, s.profile.chain_id),
    agnostic: (t) => ({ authorization: `Bearer ${t}` }),
  };
}

/** A fixed request (built once): reads with a long-lived token. */
export function fixed(s: SetupHttp, op: OperationId, headers: Record<string, string>, weight = 1, body?: unknown): MixEntry {
  const { method, path } = operation(s, op);
  const req: LoadRequest = { op, method, path, headers: body === undefined ? headers : { ...JSON_CT, ...headers }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
  return { op, weight, build: () => req };
}

/** The user-identity header carrying a user id, and the chain header (section 5, from the model). */
export function userHeaders(model: Model, token: string, userId: string, chainId: string): Record<string, string> {
  return s2sUserHeaders(model, token, userId, chainId);
}

/** A request whose headers follow the token keeper (cached per token version) and whose body is fresh. */
export function live(s: SetupHttp, tokens: TokenKeeper, op: OperationId, weight: number, headersFor: (token: string) => Record<string, string>, body?: () => Record<string, unknown>): MixEntry {
  const { method, path } = operation(s, op);
  const tpl = s.profile.request_templates?.[op];
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
      return { op, method, path, headers, body: JSON.stringify(applyRequestTemplate(tpl, body())) };
    },
  };
}

