// selftest --profile: the built-in names `full` (control API, signing secrets, IdP: the default) and
// `minimal` (none of them), or a target profile JSON file, read as the services it declares: all of
// them is full, none is minimal (a partial set has no selftest counterpart and is refused).
import { resolve } from 'node:path';
import { ConfigError } from '../errors/index.ts';
import { SELFTEST_DEFAULTS, type SelftestProfile } from '../mutants/index.ts';
import { readProfileFile } from '../profile/index.ts';

const SERVICES = ['control_url', 's2s_signing_secret', 'user_token_signing_secret', 'idp.enabled'] as const;

export async function selftestProfile(value: unknown, cwd: string): Promise<SelftestProfile> {
  if (value === undefined) return SELFTEST_DEFAULTS.profile;
  const text = String(([] as unknown[]).concat(value).at(-1));
  if (text === 'full' || text === 'minimal') return text;
  const parsed = await readProfileFile(resolve(cwd, text));
  if (typeof parsed !== 'object' || parsed === null) throw new ConfigError(`--profile ${text}: a profile file holds a JSON object (spec/schemas/profile.schema.json)`);
  const raw = parsed as Record<string, unknown>;
  const declared = SERVICES.filter((s) => (s === 'idp.enabled' ? (raw.idp as { enabled?: unknown } | undefined)?.enabled === true : raw[s] !== undefined));
  if (declared.length === SERVICES.length) return 'full';
  if (declared.length === 0) return 'minimal';
  throw new ConfigError(`--profile ${text}: selftest runs with all of ${SERVICES.join(', ')} (full) or none (minimal); the file declares only ${declared.join(', ')}. Give full, minimal, or a profile with all or none of them`);
}
