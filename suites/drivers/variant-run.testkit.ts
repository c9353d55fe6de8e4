// For the drivers' tests: run some checks against the reference switched to one variant of the mutant
// bank (its options; variants that need the interception proxy are refused), seed 1. One helper, so the
// tests beside each check say only which checks and which variant.
import { runConformance } from '../../src/api/index.ts';
import type { CheckResult } from '../../src/events/index.ts';
import { buildMutantBank } from '../../src/mutants/registry.ts';
import type { TargetProfile } from '../../src/profile/types.ts';
import { startReference, type ReferenceOptions } from '../../src/reference/index.ts';

/** Each check's result by id; `edit` changes the profile the run gets (a path removed, a service left out). */
export async function runOnVariant(checks: readonly string[], variantId?: string, edit: (p: TargetProfile) => TargetProfile = (p) => p): Promise<Map<string, CheckResult>> {
  const variant = variantId === undefined ? undefined : buildMutantBank().find((v) => v.id === variantId);
  if (variantId !== undefined && !variant) throw new Error(`no variant ${variantId} in the bank`);
  if (variant?.proxy) throw new Error(`${variantId} needs the interception proxy: not run here`);
  return runOnReference(checks, { ...(variant?.options ?? {}) }, edit);
}

/** Each check's result by id, against the reference started with `options` (latency, limits, faults). */
export async function runOnReference(checks: readonly string[], options: ReferenceOptions, edit: (p: TargetProfile) => TargetProfile = (p) => p): Promise<Map<string, CheckResult>> {
  const ref = await startReference(options);
  try {
    const out = await runConformance({ profile: edit(ref.profile), env: {}, checks: [...checks], seed: 1 });
    return new Map(out.results.map((r) => [r.checkId, r]));
  } finally {
    await ref.close();
  }
}

/** One check's result (it must have run). */
export async function runOneOnVariant(check: string, variantId?: string, edit?: (p: TargetProfile) => TargetProfile): Promise<CheckResult> {
  const r = (await runOnVariant([check], variantId, edit)).get(check);
  if (!r) throw new Error(`${check} did not run`);
  return r;
}
