// The vendor-sandbox guide's needs table (docs/validate-a-vendor-sandbox.md): which profile field (or control operation) unlocks which checks,
// generated from the checks' declared needs so it cannot drift from them (needs-table.test.ts fails
// when the guide differs; `npx baas-conform rules --needs` prints the same table).

import type { Check, Need } from '../checks/types.ts';
import type { Model } from '../model/types.ts';

export const NEEDS_TABLE_MARKERS = { start: '<!-- sandbox-needs-table:start (generated: npx tsx test/sandbox/update-readme.ts) -->', end: '<!-- sandbox-needs-table:end -->' } as const;

/** Facts of the model the table names (never a list written here). */
export interface NeedsFacts {
  /** The card-tokenization operations whose authentication the spec does not show (x-auth-unspecified). */
  pciAuthOperations: readonly string[];
}

export function needsFacts(model: Pick<Model, 'operations'>): NeedsFacts {
  return { pciAuthOperations: [...model.operations.values()].filter((o) => o.server === 'pci' && o.authUnspecified).map((o) => o.operationId).sort() };
}

/** What to put in the profile (or the control adapter) to meet a need. */
export function unlockOf(need: Need, facts?: NeedsFacts): string {
  if (need.includes('|')) return need.split('|').map((alt) => unlockOf(alt as Need, facts)).join(' **or** ');
  if (need.startsWith('fixture:')) return `\`fixtures.${need.slice('fixture:'.length)}\` (an existing user in that state, read only)`;
  if (need.startsWith('control:')) {
    const op = need.slice('control:'.length);
    return `control adapter maps \`${op}\` (or \`control_url\`: our control API has every operation)`;
  }
  if (need.startsWith('operation:')) return `\`operations.${need.slice('operation:'.length)}\` (path the spec does not show)`;
  if (need.startsWith('special_client:')) return `\`special_clients.${need.slice('special_client:'.length)}\``;
  switch (need) {
    case 'control':
      return '`control_adapter` or `control_url` (any control operation)';
    case 'pci': {
      // Section 4 shows no headers for the card-tokenization environment: a sandbox that protects it needs the profile to say how.
      const ops = facts?.pciAuthOperations ?? [];
      return ops.length === 0 ? '`pci_url`' : `\`pci_url\`; where the sandbox protects card tokenization, also ${ops.map((o) => `\`operation_auth.${o}\``).join(', ')} (its authentication is not shown)`;
    }
    case 's2s_signing_secret':
      return '`s2s_signing_secret`';
    case 'user_token_signing_secret':
      return '`user_token_signing_secret`';
    case 'two_clients':
      return '`clients[1]` (a second company)';
    case 'idp':
      return '`idp.enabled`, and either `idp.app_id` + `idp.signing_key` (or `signing_key_file`) + `idp.jwks_url` registered with the vendor, or a control adapter that maps `setIdpConfig`';
    case 'idp_tokens':
      return '`idp.enabled`, and either what unlocks `idp` or `idp.tokens` (real provider access and identity tokens of one user)';
    case 'webhooks':
      return '`webhooks.listen` + `webhooks.public_url` (external receiver; the URL set in the vendor dashboard), or a control adapter that maps `setWebhookBaseUrl`';
    default:
      return `\`${need}\``;
  }
}

/** Markdown table: one row per need, the checks that declare it, and a last row for checks with none. */
export function needsTable(checks: Check[], facts?: NeedsFacts): string {
  const byNeed = new Map<Need, string[]>();
  for (const c of checks) for (const n of c.needs ?? []) (byNeed.get(n) ?? byNeed.set(n, []).get(n)!).push(c.id);
  const order = (n: string) => (n.includes('|') ? 2 : n.startsWith('control:') ? 1 : n === 'webhooks' || n === 'idp' ? 0 : n.startsWith('operation:') ? 3 : 2);
  const needs = [...byNeed.keys()].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const free = checks.filter((c) => !(c.needs ?? []).length).length;
  const rows = needs.map((n) => {
    const ids = [...byNeed.get(n)!].sort();
    return `| \`${n}\` | ${unlockOf(n, facts)} | ${ids.length} | ${ids.map((id) => `\`${id}\``).join(', ')} |`;
  });
  return [
    '| Need | Profile field that unlocks it | Checks | Check ids |',
    '|---|---|---:|---|',
    ...rows,
    `| (none) | runs on any target with \`base_url\` and \`clients\` | ${free} | |`,
  ].join('\n');
}

/** Guide text with the block between the markers replaced by `table`. */
export function replaceNeedsTable(readme: string, table: string): string {
  const { start, end } = NEEDS_TABLE_MARKERS;
  const i = readme.indexOf(start);
  const j = readme.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/validate-a-vendor-sandbox.md has no ${start} ... ${end} block`);
  return `${readme.slice(0, i + start.length)}\n${table}\n${readme.slice(j)}`;
}
