// Reading and resolving a target profile: validate once at the edge, fill defaults from one
// constant, apply overrides (CLI --target, environment credentials). Past this point the engine
// trusts the ResolvedProfile and never re-checks it.

import { dirname, resolve as resolvePath } from 'node:path';
import { ConfigError } from '../errors/index.ts';
import { readInputFile } from '../input/index.ts';
import { checkOperationAuth, withEnvHeaders, type AuthUnspecifiedOperations } from './operation-auth.ts';
import type { ClientCredentials, ResolvedProfile, TargetProfile } from './types.ts';
import { loadSchema, validateOrThrow } from './validate.ts';

export const PROFILE_DEFAULTS = {
  /** The sandbox chain (section 5). */
  chain_id: '84532',
} as const;

/** Environment variables that supply credentials so they need not sit in a profile file. */
export const CREDENTIAL_ENV = {
  client0: { id: 'BAAS_CLIENT_ID', secret: 'BAAS_CLIENT_SECRET' },
  client1: { id: 'BAAS_CLIENT2_ID', secret: 'BAAS_CLIENT2_SECRET' },
} as const;

export interface ProfileOverrides {
  /** Replaces base_url (`--target URL`). */
  target?: string;
  /** Environment to read credentials from; default process.env. Pass {} to ignore the environment. */
  env?: Record<string, string | undefined>;
  /**
   * The model's operations: given, operation_auth is checked against them (only operations whose
   * authentication the spec does not show may be named). Every command that loads a profile gives it.
   */
  operations?: AuthUnspecifiedOperations;
}

let schema: object | undefined;
function profileSchema(): object {
  return (schema ??= loadSchema('spec/schemas/profile.schema.json'));
}

/** Reads a profile file as JSON without validating it (resolveProfile validates). */
export async function readProfileFile(file: string): Promise<unknown> {
  return (await readInputFile(file, { what: 'profile', format: 'json' })).value;
}

/** Reads, validates and resolves a profile file. */
export async function loadProfile(file: string, overrides: ProfileOverrides = {}): Promise<ResolvedProfile> {
  const doc = await readInputFile(file, { what: 'profile', format: 'json' });
  let p: ResolvedProfile;
  try {
    p = resolveProfile(doc.value, overrides, `profile ${file}`);
  } catch (err) {
    throw doc.locate(err);
  }
  // Files a profile names are relative to the profile, not to wherever the command runs.
  const dir = dirname(resolvePath(file));
  if (p.control_adapter) p.control_adapter = resolvePath(dir, p.control_adapter);
  if (p.ca_file) p.ca_file = resolvePath(dir, p.ca_file);
  if (p.idp?.signing_key_file) p.idp = { ...p.idp, signing_key_file: resolvePath(dir, p.idp.signing_key_file) };
  return p;
}

function withEnvCredentials(clients: ClientCredentials[], env: Record<string, string | undefined>): ClientCredentials[] {
  const out = clients.map((c) => ({ ...c }));
  const slots = [CREDENTIAL_ENV.client0, CREDENTIAL_ENV.client1];
  slots.forEach((names, i) => {
    const id = env[names.id];
    const secret = env[names.secret];
    if (id === undefined && secret === undefined) return;
    // Fill earlier slots first so BAAS_CLIENT2_* never lands in clients[0].
    while (out.length < i) out.push({ client_id: '', client_secret: '' });
    const current = out[i] ?? { client_id: '', client_secret: '' };
    out[i] = { ...current, ...(id !== undefined ? { client_id: id } : {}), ...(secret !== undefined ? { client_secret: secret } : {}) };
  });
  return out;
}

function trimSlash(url: string | undefined): string | undefined {
  return url === undefined ? undefined : url.replace(/\/+$/, '');
}

/**
 * Validates a raw profile (parsed JSON, or undefined when only --target and env credentials are
 * given), applies overrides and defaults. Throws ConfigError with one line naming the field.
 */
export function resolveProfile(raw: unknown, overrides: ProfileOverrides = {}, context = 'profile'): ResolvedProfile {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw new ConfigError(`${context}: must be a JSON object`);
  }
  const env = overrides.env ?? process.env;
  const draft: Record<string, unknown> = { ...((raw as Record<string, unknown>) ?? {}) };
  if (overrides.target !== undefined) draft.base_url = overrides.target;
  const clients = Array.isArray(draft.clients) ? (draft.clients as ClientCredentials[]) : draft.clients === undefined ? [] : draft.clients;
  draft.clients = Array.isArray(clients) ? withEnvCredentials(clients, env) : clients;
  if (Array.isArray(draft.clients) && draft.clients.length === 0) {
    throw new ConfigError(
      `${context}: clients is required: give profile.clients or set ${CREDENTIAL_ENV.client0.id}/${CREDENTIAL_ENV.client0.secret}`,
    );
  }
  if (draft.base_url === undefined) throw new ConfigError(`${context}: base_url is required (or pass --target URL)`);
  const valid = validateOrThrow<TargetProfile>(profileSchema(), draft, 'profile', context);
  const resolved: ResolvedProfile = {
    ...valid,
    base_url: trimSlash(valid.base_url)!,
    chain_id: valid.chain_id ?? PROFILE_DEFAULTS.chain_id,
    operations: { ...(valid.operations ?? {}) },
  };
  if (valid.operation_auth !== undefined) resolved.operation_auth = withEnvHeaders(valid.operation_auth, env, context);
  if (overrides.operations) checkOperationAuth(resolved, overrides.operations, context);
  if (valid.pci_url !== undefined) resolved.pci_url = trimSlash(valid.pci_url);
  if (valid.control_url !== undefined) resolved.control_url = trimSlash(valid.control_url);
  for (const [op, loc] of Object.entries(resolved.operations)) resolved.operations[op] = { ...loc, method: loc.method.toUpperCase() };
  return resolved;
}
