// profile.operation_auth: how the operations whose authentication the spec does not show
// (spec/openapi.yaml x-auth-unspecified) authenticate on one target. Section 4 says "Unless stated,
// the headers are those of section 5" and shows none for the card-tokenization environment, so only
// the target can say. Checked here, once, at the edge: which operations may be named comes from the
// model (never a list written here); header values read the environment through {{env.NAME}}.

import { ConfigError } from '../errors/index.ts';
import type { OperationAuth, TargetProfile } from './types.ts';

const ENV = /\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** The mode an operation is sent with when the profile does not name it: no credentials (today's behaviour). */
export const DEFAULT_OPERATION_AUTH: OperationAuth = { mode: 'none' };

/**
 * operation_auth with every `{{env.NAME}}` of a header value read from `env`; an unset variable is a
 * ConfigError naming the field (exit 2). Undefined in, undefined out.
 */
export function withEnvHeaders(auth: TargetProfile['operation_auth'], env: Record<string, string | undefined>, context: string): TargetProfile['operation_auth'] {
  if (!auth) return auth;
  const out: NonNullable<TargetProfile['operation_auth']> = {};
  for (const [op, a] of Object.entries(auth)) {
    if (!a?.headers) {
      out[op] = a;
      continue;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(a.headers)) {
      headers[name] = String(value).replace(ENV, (_m, v: string) => {
        const got = env[v];
        if (got === undefined || got === '') throw new ConfigError(`${context}: operation_auth.${op}.headers.${name} reads {{env.${v}}}, but the environment variable ${v} is not set`);
        return got;
      });
    }
    out[op] = { ...a, headers };
  }
  return out;
}

/** What the check needs of the model: each operation's x-auth-unspecified flag. */
export type AuthUnspecifiedOperations = ReadonlyMap<string, { authUnspecified: boolean }>;

/**
 * Refuses an operation_auth the engine could not honour, naming the field (ConfigError, exit 2): a key
 * that is not an operation whose authentication the spec leaves unshown (the spec shows how the others
 * authenticate), headers mode without headers or other modes with them, a client index the profile lacks.
 */
export function checkOperationAuth(profile: Pick<TargetProfile, 'operation_auth' | 'clients'>, operations: AuthUnspecifiedOperations, context = 'profile'): void {
  const open = [...operations].filter(([, o]) => o.authUnspecified).map(([id]) => id);
  for (const [op, a] of Object.entries(profile.operation_auth ?? {})) {
    const at = `${context}: operation_auth.${op}`;
    const known = operations.get(op);
    if (!known) throw new ConfigError(`${at}: "${op}" is not an operationId of spec/openapi.yaml; operation_auth takes the operations whose authentication the spec does not show: ${open.join(', ')}`);
    if (!known.authUnspecified) throw new ConfigError(`${at}: the spec shows how ${op} authenticates (section 5), so the profile cannot change it; operation_auth takes only ${open.join(', ')}`);
    if (a.mode === 'headers' && (!a.headers || Object.keys(a.headers).length === 0)) throw new ConfigError(`${at}: mode "headers" needs headers (name -> value)`);
    if (a.mode !== 'headers' && a.headers) throw new ConfigError(`${at}: headers are sent only in mode "headers" (this entry has mode "${a.mode}")`);
    if (a.client !== undefined && a.mode !== 's2s') throw new ConfigError(`${at}: client names whose S2S token is sent, so it needs mode "s2s" (this entry has mode "${a.mode}")`);
    if (a.mode === 's2s' && (a.client ?? 0) >= profile.clients.length) throw new ConfigError(`${at}: client ${a.client ?? 0} is not in profile.clients (${profile.clients.length} given)`);
  }
}

/** The header values of operation_auth: secrets, masked like client secrets. */
export function operationAuthSecrets(profile: Pick<TargetProfile, 'operation_auth'>): string[] {
  return Object.values(profile.operation_auth ?? {}).flatMap((a) => Object.values(a?.headers ?? {}));
}
