// The one target choice for run, certify, compare and load: a profile (file or object), a bare
// --target URL, or, with neither, the embedded reference started on loopback for the caller.
import path from 'node:path';
import { loadModel } from '../model/index.ts';
import { loadProfile, resolveProfile, type ResolvedProfile, type TargetProfile } from '../profile/index.ts';
import type { ReferenceOptions } from '../reference/index.ts';

export interface TargetInput {
  /** A profile JSON file (relative to cwd) or the profile object itself. */
  profile?: string | TargetProfile;
  /** Base URL; overrides the profile's base_url. */
  target?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Options of the embedded reference, when it is the target. */
  reference?: ReferenceOptions;
}

export interface Target {
  profile: ResolvedProfile;
  /** true when the embedded reference was started for this target. */
  embedded: boolean;
  /** Stops the embedded reference; a no-op for an external target. */
  close(): Promise<void>;
}

export async function resolveTarget(input: TargetInput): Promise<Target> {
  const { profile, target, env = process.env, cwd = process.cwd() } = input;
  const external = (p: ResolvedProfile): Target => ({ profile: p, embedded: false, close: async () => {} });
  // profile.operation_auth may name only the operations the model leaves unshown: checked at load (exit 2).
  const operations = (await loadModel()).operations;
  if (typeof profile === 'string') return external(await loadProfile(path.resolve(cwd, profile), { target, env, operations }));
  if (profile !== undefined) return external(resolveProfile(profile, { target, env, operations }, 'profile'));
  if (target !== undefined) return external(resolveProfile(undefined, { target, env, operations }, '--target'));
  // The embedded reference's profile carries its own credentials: environment ones do not apply.
  // Imported here: a run against a profile or --target (a load shard, a vendor sandbox) never loads the reference.
  const { startReference } = await import('../reference/index.ts');
  const reference = await startReference(input.reference ?? {});
  return { profile: resolveProfile(reference.profile, { env: {}, operations }, 'embedded reference profile'), embedded: true, close: () => reference.close() };
}
