// The explicit registry of variant files. Adding a variant: add it to the file of its subject (any
// file: where a variant is declared does not decide how it is selected); adding a file: add it under
// variants/ and one line here. The order here is the order the selftest runs and lists them. A
// variant's area is the area of the rule it breaks (spec/placement.yaml, src/generated/placement.ts),
// or `benign` for a benign one, so `selftest --area s2s` runs every variant breaking an s2s rule.

import { createHash } from 'node:crypto';
import { ConfigError } from '../errors/index.ts';
import { CHECK_AREAS, RULE_PLACEMENT } from '../generated/placement.ts';
import { aliasesVariants } from './variants/aliases.ts';
import { benignVariants } from './variants/benign.ts';
import { clockVariants } from './variants/clock.ts';
import { constraintsVariants } from './variants/constraints.ts';
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
import { stacksVariants } from './variants/stacks.ts';
import { sepaVariants } from './variants/sepa.ts';
import { threedsVariants } from './variants/threeds.ts';
import { timeoutVariants } from './variants/timeout.ts';
import { tokenVariants } from './variants/token.ts';
import { transfersVariants } from './variants/transfers.ts';
import { transportVariants } from './variants/transport.ts';
import { userTokenVariants } from './variants/user-token.ts';
import { versioningVariants } from './variants/versioning.ts';
import { webhooksPayloadVariants } from './variants/webhooks-payload.ts';
import { unshownVariants } from './variants/unshown.ts';
import { brokenRules, type MutantVariant, type VariantSpec } from './variant.ts';

/** The default bank's declaration files (variants/<name>.ts). */
export const VARIANT_FILES = {
  token: tokenVariants,
  s2s: s2sVariants,
  identity: identityVariants,
  idp: idpVariants,
  'user-token': userTokenVariants,
  errors: errorsVariants,
  schema: schemaVariants,
  constraints: constraintsVariants,
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
  stacks: stacksVariants,
  'webhooks-payload': webhooksPayloadVariants,
  unshown: unshownVariants,
} as const satisfies Record<string, () => VariantSpec[]>;

/**
 * Opt-in sets, run only on request (`selftest --area pending|slow`), never in the default bank that npm
 * test runs: `pending`, variants no check catches yet (or freedoms a check still refuses); `slow`, full-
 * strength twins of bounded default-bank variants, minutes long.
 */
export const PENDING_AREAS = { pending: pendingVariants, slow: slowVariants } as const satisfies Record<string, () => VariantSpec[]>;

/** The default bank and the opt-in sets. */
export type BankSet = 'default' | keyof typeof PENDING_AREAS;
export const ALL_SETS: readonly BankSet[] = ['default', ...(Object.keys(PENDING_AREAS) as (keyof typeof PENDING_AREAS)[])];

/** The area a variant is selected by: its broken rule's area (spec/placement.yaml), or `benign`. */
function placed(v: VariantSpec, set: BankSet): MutantVariant {
  if (v.kind === 'benign') return { ...v, area: 'benign', topic: 'benign', set };
  const p = RULE_PLACEMENT[v.breaks];
  return { ...v, area: p.area, topic: p.topic, set };
}

/** Builds the bank (the default set, or the given sets). Stateful transforms get fresh state on every call. */
export function buildMutantBank(sets: readonly BankSet[] = ['default']): MutantVariant[] {
  return sets.flatMap((set) => {
    const files = set === 'default' ? Object.values(VARIANT_FILES) : [PENDING_AREAS[set]];
    return files.flatMap((f) => f().map((v) => placed(v, set)));
  });
}

/** The bank as built once (for listing; the selftest builds a fresh one per run). */
export const MUTANT_BANK: readonly MutantVariant[] = buildMutantBank();
/** The pending variants as built once (for listing and coverage). */
export const PENDING_BANK: readonly MutantVariant[] = buildMutantBank(['pending', 'slow']);

/** Whether `name` selects the variant: its area (auth, errors, ... or benign) or its topic (s2s, token, idp, 3ds, ...). */
export const inArea = (v: Pick<MutantVariant, 'area' | 'topic'>, name: string): boolean => v.area === name || v.topic === name;

/** Every name `selftest --area` takes: areas, topics, benign, and the opt-in sets. */
export function areaNames(bank: readonly MutantVariant[] = MUTANT_BANK): string[] {
  const areas = CHECK_AREAS.filter((a) => bank.some((v) => v.area === a));
  const topics = [...new Set(bank.map((v) => v.topic))].filter((t) => !areas.includes(t as never) && t !== 'benign').sort();
  return [...areas, 'benign', ...topics, ...Object.keys(PENDING_AREAS)];
}

/** Former area names that named a subject, and the area or topic that now holds those variants. */
const RENAMED: Record<string, string> = { threeds: '3ds', freedoms: 'benign', readings: 'benign', stacks: 'benign', ratelimit: 'limits', timeout: 'limits', transport: 'limits' };
/** Former area names that grouped variants by origin, not by rule: no successor. */
const RETIRED = ['coverage', 'depth', 'feeds', 'reported', 'clock', 'isolation'];

/**
 * The variants `selftest --area` names select (an area, a topic, `benign`, `pending` or `slow`), in
 * bank order. A former name with a successor selects it and adds a notice; a retired or unknown name
 * throws a ConfigError listing the names.
 */
export function selectVariants(names: readonly string[]): { variants: MutantVariant[]; notices: string[] } {
  const notices: string[] = [];
  const sets = new Set<BankSet>();
  const wanted = new Set<string>();
  const known = new Set(areaNames());
  for (const raw of names) {
    let name = raw;
    if (!known.has(name) && Object.hasOwn(RENAMED, name)) {
      name = RENAMED[name];
      notices.push(`--area ${raw}: areas follow the rule a variant breaks; running --area ${name}`);
    }
    if (Object.hasOwn(PENDING_AREAS, name)) sets.add(name as BankSet);
    else if (known.has(name)) wanted.add(name);
    else if (RETIRED.includes(name)) throw new ConfigError(`--area ${name}: no longer an area (it grouped variants by origin); areas follow the rule a variant breaks: ${[...known].join(', ')}`);
    else throw new ConfigError(`--area: unknown area ${JSON.stringify(name)} (areas: ${[...known].join(', ')})`);
  }
  if (wanted.size) sets.add('default');
  const variants = buildMutantBank(ALL_SETS.filter((s) => sets.has(s))).filter((v) => v.set !== 'default' || [...wanted].some((w) => inArea(v, w)));
  return { variants, notices };
}

export function variantsById(ids: string[], bank: readonly MutantVariant[] = buildMutantBank(ALL_SETS)): MutantVariant[] {
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
