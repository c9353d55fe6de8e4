// The explicit registry of variant areas. Adding a variant: add it to the area file it belongs to;
// adding an area: add its file under variants/ and one line here. The order here is the order the
// selftest runs and lists them.

import { createHash } from 'node:crypto';
import { aliasesVariants } from './variants/aliases.ts';
import { benignVariants } from './variants/benign.ts';
import { clockVariants } from './variants/clock.ts';
import { coverageVariants } from './variants/coverage.ts';
import { depthVariants } from './variants/depth.ts';
import { errorsVariants } from './variants/errors.ts';
import { feedsVariants } from './variants/feeds.ts';
import { freedomsVariants } from './variants/freedoms.ts';
import { identityVariants } from './variants/identity.ts';
import { idpVariants } from './variants/idp.ts';
import { isolationVariants } from './variants/isolation.ts';
import { pendingVariants } from './variants/pending.ts';
import { ratelimitVariants } from './variants/ratelimit.ts';
import { readingsVariants } from './variants/readings.ts';
import { reportedVariants } from './variants/reported.ts';
import { s2sVariants } from './variants/s2s.ts';
import { schemaVariants } from './variants/schema.ts';
import { slowVariants } from './variants/slow.ts';
import { sepaVariants } from './variants/sepa.ts';
import { threedsVariants } from './variants/threeds.ts';
import { timeoutVariants } from './variants/timeout.ts';
import { tokenVariants } from './variants/token.ts';
import { transfersVariants } from './variants/transfers.ts';
import { transportVariants } from './variants/transport.ts';
import { userTokenVariants } from './variants/user-token.ts';
import { versioningVariants } from './variants/versioning.ts';
import { brokenRules, type MutantVariant, type VariantSpec } from './variant.ts';

export const VARIANT_AREAS = {
  token: tokenVariants,
  s2s: s2sVariants,
  identity: identityVariants,
  idp: idpVariants,
  'user-token': userTokenVariants,
  errors: errorsVariants,
  schema: schemaVariants,
  aliases: aliasesVariants,
  versioning: versioningVariants,
  sepa: sepaVariants,
  threeds: threedsVariants,
  transfers: transfersVariants,
  ratelimit: ratelimitVariants,
  timeout: timeoutVariants,
  transport: transportVariants,
  coverage: coverageVariants,
  depth: depthVariants,
  feeds: feedsVariants,
  reported: reportedVariants,
  clock: clockVariants,
  isolation: isolationVariants,
  benign: benignVariants,
  freedoms: freedomsVariants,
  readings: readingsVariants,
} as const satisfies Record<string, () => VariantSpec[]>;

/**
 * Opt-in areas, run only on request (`selftest --area pending|slow`), never in the default bank that npm
 * test runs: `pending`, variants no check catches yet (or freedoms a check still refuses); `slow`, full-
 * strength twins of bounded default-bank variants, minutes long.
 */
export const PENDING_AREAS = { pending: pendingVariants, slow: slowVariants } as const satisfies Record<string, () => VariantSpec[]>;

const ALL_AREAS = { ...VARIANT_AREAS, ...PENDING_AREAS };

export type VariantArea = keyof typeof ALL_AREAS;

/** The areas of the default bank. */
export const AREA_NAMES = Object.keys(VARIANT_AREAS) as VariantArea[];
/** Every area, pending included. */
export const ALL_AREA_NAMES = Object.keys(ALL_AREAS) as VariantArea[];

export function isVariantArea(name: string): name is VariantArea {
  return Object.hasOwn(ALL_AREAS, name);
}

/** Builds the bank (or the given areas of it). Stateful transforms get fresh state on every call. */
export function buildMutantBank(areas: readonly VariantArea[] = AREA_NAMES): MutantVariant[] {
  return areas.flatMap((area) => ALL_AREAS[area]().map((v) => ({ ...v, area })));
}

/** The bank as built once (for listing; the selftest builds a fresh one per run). */
export const MUTANT_BANK: readonly MutantVariant[] = buildMutantBank();
/** The pending variants as built once (for listing and coverage). */
export const PENDING_BANK: readonly MutantVariant[] = buildMutantBank(Object.keys(PENDING_AREAS) as VariantArea[]);

export function variantsById(ids: string[], bank: readonly MutantVariant[] = buildMutantBank()): MutantVariant[] {
  const byId = new Map(bank.map((v) => [v.id, v]));
  return ids.map((id) => {
    const v = byId.get(id);
    if (!v) throw new Error(`unknown mutant variant ${JSON.stringify(id)} (baas-conform selftest --list shows the ${byId.size} variants)`);
    return v;
  });
}

/** A short digest of a variant list (for reports): same bank, same digest. */
export function bankDigest(bank: readonly MutantVariant[]): string {
  return createHash('sha256').update(bank.map((v) => `${v.id}:${v.kind}:${brokenRules(v).join(',')}`).join('\n')).digest('hex').slice(0, 12);
}
