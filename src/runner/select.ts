// Which checks a run executes: --safe, --check filters, --shard. All deterministic, so a CI matrix
// of shards covers every check exactly once and a replay selects the same checks.

import type { Check } from '../checks/types.ts';

/** FNV-1a, 32-bit: stable across platforms and Node versions (unlike anything seeded). */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

import type { Shard } from '../options/shard.ts';

export type { Shard } from '../options/shard.ts';

export function inShard(checkId: string, shard: Shard | undefined): boolean {
  if (!shard) return true;
  return stableHash(checkId) % shard.total === shard.index - 1;
}

/**
 * `--check` patterns: an exact id, a prefix ending in `*` or `.` (`errors.token.*`, `errors.`), or a
 * glob with `*` anywhere (`*.client-id-*`).
 */
export function matchesPattern(checkId: string, pattern: string): boolean {
  if (pattern === checkId) return true;
  if (!pattern.includes('*')) return pattern.endsWith('.') && checkId.startsWith(pattern);
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(checkId);
}

export interface Selection {
  safe?: boolean;
  checkIds?: string[];
  shard?: Shard;
}

export function selectChecks(checks: Check[], sel: Selection): Check[] {
  return checks.filter(
    (c) =>
      (!sel.safe || c.safe) &&
      (!sel.checkIds?.length || sel.checkIds.some((p) => matchesPattern(c.id, p))) &&
      inShard(c.id, sel.shard),
  );
}

/** Why a check that exists was not selected (for the rule table). */
export function notSelectedReason(check: Check, sel: Selection): string {
  if (sel.safe && !check.safe) return 'not run: --safe keeps only checks that create nothing';
  if (sel.checkIds?.length && !sel.checkIds.some((p) => matchesPattern(check.id, p))) return 'not run: excluded by --check';
  return `not run: in another shard than ${sel.shard?.index}/${sel.shard?.total}`;
}
