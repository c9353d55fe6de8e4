// Generates suites/generated/<area>.ts from the model: one check per testable rule, joined with the
// hand-written driver for that rule (suites/drivers/<area>.ts). Coverage cannot drop silently: a
// testable rule with no driver (and not covered by another driver's alsoCovers) is an error, and so
// is a driver for a rule that no longer exists. Output is deterministic (model order, fixed areas).

import { mkdir, readFile, writeFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Handlebars from 'handlebars';
import { loadModel, renderSpecText } from '../src/model/index.ts';
import type { Model, Rule, ErrorRule, RuleId } from '../src/model/types.ts';
import type { Driver } from '../suites/drivers/driver.ts';

/** A drivers module as imported at run time: keyed by rule id, or by operationId in the schema area. */
type Drivers = Readonly<Record<string, Driver>>;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
export const SUITES_OUT_DIR = path.join(ROOT, 'suites/generated');

/** Areas in report order; each has suites/drivers/<area>.ts and suites/generated/<area>.ts. */
export const AREAS = [
  'auth', 'errors', 'identity', 'users', 'aliases', 'states', 'cards',
  'transfers', 'bank', 'webhooks', 'versioning', 'schema', 'limits',
] as const;
export type Area = (typeof AREAS)[number];

/** Rules placed explicitly; everything else goes by prefix / kind (see areaOf). */
const AREA_BY_RULE: Partial<Record<RuleId, Area>> = {
  // Section 7 S2S rows that are about the user identity headers.
  'ERR-S2S-CHAIN-ID-MISSING': 'identity',
  'ERR-S2S-USER-IDENTIFIER-MISSING': 'identity',
  'ERR-S2S-USER-IDENTIFIER-MULTIPLE': 'identity',
  'ERR-S2S-USER-NOT-FOUND': 'identity',
  'AUTH-IDENTITY-HEADER-KINDS': 'identity',
  'AUTH-X-USER-WALLET-IS-EOA': 'identity',
  'AUTH-CHAIN-ID-REQUIRED': 'identity',
  'AUTH-COMPANY-ISOLATION': 'identity',
  // Section 7 "other rules" that belong to a state machine or an endpoint.
  'ERR-3DS-NOT-FOUND': 'states',
  'ERR-SEPA-WRONG-PATH': 'states',
  'ERR-CHAIN-NOT-NUMERIC': 'bank',
  'ERR-ALIAS-MISMATCH': 'aliases',
  'ERR-RATE-LIMITED': 'limits',
  'ERR-BODY-SHAPE': 'errors',
  'ERR-CATEGORY-STATUS': 'errors',
  'ERR-OTHER-ENDPOINTS': 'errors',
  // Endpoint rules (general.yaml).
  'ENDPOINT-RESPONSE-SCHEMA': 'schema',
  'GENERAL-TRANSPORT-JSON': 'schema',
  'ENDPOINT-USER-CREATE': 'users',
  'ENDPOINT-RETAIL-REGISTER': 'users',
  'ENDPOINT-CONFIG-READS': 'users',
  'ENDPOINT-WALLETS': 'users',
  'ENDPOINT-ACTIVITY-FEED': 'users',
  'ENDPOINT-CARDS': 'cards',
  'ENDPOINT-CARD-AS-CREATED': 'cards',
  'ENDPOINT-RECIPIENT-AS-CREATED': 'transfers',
  'STATE-CARD-CLOSE-TERMINAL': 'cards',
  'ENDPOINT-BANK-ACCOUNT-TYPES': 'bank',
  'ENDPOINT-CHAIN-NUMERIC-STRING': 'bank',
  'ENDPOINT-PRIMARY-WALLET-SERVER': 'bank',
  'FLOW-PUSH-TO-CARD': 'transfers',
};

const PREFIX_AREAS: [RegExp, Area][] = [
  [/^ERR-/, 'errors'],
  [/^STATE-/, 'states'],
  [/^ALIAS-/, 'aliases'],
  [/^AUTH-/, 'auth'],
  [/^LIMIT-/, 'limits'],
  [/^VERSION-/, 'versioning'],
  [/^EVENT-/, 'webhooks'],
];

/** Rules covered by the per-operation schema checks (one check per operation, not per rule). */
const SCHEMA_RULES: RuleId[] = ['ENDPOINT-RESPONSE-SCHEMA', 'GENERAL-TRANSPORT-JSON'];

export function areaOf(rule: Rule): Area {
  const explicit = AREA_BY_RULE[rule.id];
  if (explicit) return explicit;
  for (const [re, area] of PREFIX_AREAS) if (re.test(rule.id)) return area;
  throw new Error(`generators/suites.ts: rule ${rule.id} (spec/${rule.source.file} ${rule.source.pointer}) maps to no area; add it to AREA_BY_RULE`);
}

const ID_PREFIXES = ['ERR', 'STATE', 'ALIAS', 'AUTH', 'LIMIT', 'VERSION', 'EVENT', 'ENDPOINT', 'FLOW', 'GENERAL'];
const TABLE_PREFIX: Record<string, string> = { token: 'TOKEN', s2s: 'S2S', idp: 'IDP', user_token: 'USER-TOKEN' };

/** Ids the generic derivation renders awkwardly (a header name or the area repeated as the group). */
const CHECK_ID_OVERRIDES: Partial<Record<RuleId, string>> = {
  'AUTH-IDENTITY-HEADER-KINDS': 'identity.headers.each-kind',
  'AUTH-X-USER-WALLET-IS-EOA': 'identity.wallet-header.eoa-only',
  'AUTH-CHAIN-ID-REQUIRED': 'identity.chain-header.required',
  'ENDPOINT-USER-CREATE': 'users.create.v1-v2',
  'ENDPOINT-CARDS': 'cards.virtual.create-and-list',
  'STATE-CARD-CLOSE-TERMINAL': 'cards.close.terminal',
  'ENDPOINT-BANK-ACCOUNT-TYPES': 'bank.accounts.types',
  'ENDPOINT-CHAIN-NUMERIC-STRING': 'bank.chain.numeric-string',
  'ENDPOINT-PRIMARY-WALLET-SERVER': 'bank.primary-wallet.server-resolved',
  'ENDPOINT-RETAIL-REGISTER': 'users.retail.register',
  'FLOW-PUSH-TO-CARD': 'transfers.push-to-card.end-to-end',
  'ENDPOINT-WALLETS': 'users.wallets.read',
  'EVENT-WEBHOOK-DELIVERY': 'webhooks.delivery.json-post',
  'EVENT-WEBHOOK-POST': 'webhooks.delivery.method-post',
};

/** Stable, readable check id from the rule id: ERR-TOKEN-CLIENT-ID-MISSING -> errors.token.client-id-missing. */
export function checkIdFor(rule: Rule, area: Area): string {
  const override = CHECK_ID_OVERRIDES[rule.id];
  if (override) return override;
  let rest: string = rule.id;
  const first = rest.split('-')[0];
  if (ID_PREFIXES.includes(first)) rest = rest.slice(first.length + 1);
  let group: string | undefined;
  if (rule.kind === 'error') {
    const table = (rule as ErrorRule).table;
    const prefix = TABLE_PREFIX[table];
    if (prefix && rest.startsWith(`${prefix}-`)) {
      group = table.replace(/_/g, '-');
      rest = rest.slice(prefix.length + 1);
    }
  }
  const parts = rest.toLowerCase().split('-');
  if (!group) {
    if (parts.length === 1) return `${area}.${parts[0]}`;
    group = parts.shift()!;
  }
  return `${area}.${group}.${parts.join('-')}`;
}

export function kebab(opId: string): string {
  return opId.replace(/([a-z0-9])([A-Z])/g, '$1-$2').replace(/([a-z])([0-9])/g, '$1-$2').toLowerCase();
}

/** Default check title: the rule summary, or for a section 7 row its status, reason, message and cause. */
export function titleOf(rule: Rule): string {
  if (rule.summary) return rule.summary;
  if (rule.kind === 'error') {
    const e = rule as ErrorRule;
    const parts = [`${e.status}`, e.reason ?? '(any reason)', e.message !== null ? `"${e.message}"` : '(any message)'];
    return `${e.cause}: ${parts.join(' ')}`;
  }
  return rule.id;
}

interface RenderedCheck {
  id: string;
  title: string;
  area: string;
  section: string;
  rules: string[];
  safe: boolean;
  exclusive: boolean;
  needs: string[];
  driverKey: string;
}

async function loadDrivers(area: Area): Promise<Drivers> {
  const file = path.join(ROOT, 'suites/drivers', `${area}.ts`);
  const mod = await import(pathToFileURL(file).href);
  if (!mod.drivers || typeof mod.drivers !== 'object') throw new Error(`suites/drivers/${area}.ts exports no \`drivers\` record`);
  return mod.drivers as Drivers;
}

function checkOf(id: string, title: string, area: Area, section: string, rules: string[], d: Driver, driverKey: string): RenderedCheck {
  return {
    id, title, area, section,
    rules: [...new Set(rules)],
    safe: d.safe === true,
    exclusive: d.exclusive === true,
    needs: [...(d.needs ?? [])],
    driverKey,
  };
}

/** Builds the per-area check lists (no file I/O besides importing drivers). Throws on any coverage gap. */
export async function planSuites(model: Model): Promise<Map<Area, RenderedCheck[]>> {
  const byId = new Map<string, Rule>(model.rules.map((r) => [r.id, r]));
  const errors: string[] = [];
  const driversByArea = new Map<Area, Drivers>();
  for (const area of AREAS) driversByArea.set(area, await loadDrivers(area));

  // alsoCovers must name existing rules.
  const alsoCovered = new Set<string>();
  for (const [area, drivers] of driversByArea) {
    for (const [key, d] of Object.entries(drivers)) {
      for (const extra of d.alsoCovers ?? []) {
        if (!byId.has(extra)) errors.push(`suites/drivers/${area}.ts: driver ${key} alsoCovers unknown rule ${extra}`);
        else if (!byId.get(extra)!.testable) errors.push(`suites/drivers/${area}.ts: driver ${key} alsoCovers ${extra}, which is testable: false`);
        alsoCovered.add(extra);
      }
    }
  }

  const plan = new Map<Area, RenderedCheck[]>(AREAS.map((a) => [a, []]));
  const usedKeys = new Map<Area, Set<string>>(AREAS.map((a) => [a, new Set()]));
  for (const rule of model.rules) {
    let area: Area;
    try {
      area = areaOf(rule);
    } catch (err) {
      errors.push((err as Error).message);
      continue;
    }
    if (area === 'schema' && SCHEMA_RULES.includes(rule.id)) continue; // per-operation checks below
    const drivers = driversByArea.get(area)!;
    const d = Object.hasOwn(drivers, rule.id) ? drivers[rule.id] : undefined;
    if (!rule.testable) {
      if (d) errors.push(`suites/drivers/${area}.ts: driver for ${rule.id}, which spec/rules marks testable: false (${rule.untestable_reason})`);
      continue;
    }
    if (!d) {
      if (alsoCovered.has(rule.id)) continue;
      errors.push(`rule ${rule.id} (spec/${rule.source.file} ${rule.source.pointer}) is testable but suites/drivers/${area}.ts has no driver for it and no driver lists it in alsoCovers`);
      continue;
    }
    usedKeys.get(area)!.add(rule.id);
    plan.get(area)!.push(checkOf(checkIdFor(rule, area), d.title !== undefined ? renderSpecText(d.title, model) : titleOf(rule), area, rule.section, [rule.id, ...(d.alsoCovers ?? [])], d, rule.id));
  }

  // Schema area: one check per operation whose path the spec shows (drivers keyed by operationId).
  const schemaDrivers = driversByArea.get('schema')!;
  const schemaRules = SCHEMA_RULES.filter((id) => byId.get(id)?.testable);
  for (const op of model.operations.values()) {
    const d = Object.hasOwn(schemaDrivers, op.operationId) ? schemaDrivers[op.operationId] : undefined;
    if (!d) {
      if (!op.pathUnspecified) errors.push(`operation ${op.operationId} (${op.method} ${op.path}) has a specified path but suites/drivers/schema.ts has no driver for it`);
      continue;
    }
    usedKeys.get('schema')!.add(op.operationId);
    const where = op.pathUnspecified ? `${op.operationId} (path from the profile)` : `${op.method} ${op.server === 'pci' ? '{pci_url}' : ''}${op.path}`;
    plan.get('schema')!.push(checkOf(`schema.${kebab(op.operationId)}`, d.title !== undefined ? renderSpecText(d.title, model) : `${where}: the happy path answers JSON matching the documented response schema`, 'schema', '4', [...schemaRules, ...(d.alsoCovers ?? [])], d, op.operationId));
  }

  // Drivers for rules that are not in this area (stale or misplaced) are errors too.
  for (const [area, drivers] of driversByArea) {
    for (const key of Object.keys(drivers)) {
      if (!usedKeys.get(area)!.has(key)) {
        const r = byId.get(key);
        if (r && !r.testable) continue; // reported above
        errors.push(`suites/drivers/${area}.ts: driver ${key} matches no ${area === 'schema' ? 'operation' : `rule of area ${area}`}${r ? ` (rule ${key} belongs to area ${areaOf(r)})` : ''}`);
      }
    }
  }

  // Check ids must be unique.
  const seen = new Set<string>();
  for (const checks of plan.values()) {
    for (const c of checks) {
      if (seen.has(c.id)) errors.push(`duplicate check id ${c.id}`);
      seen.add(c.id);
    }
  }
  if (errors.length) throw new Error(`generateSuites: ${errors.length} problem(s):\n  - ${errors.join('\n  - ')}`);
  return plan;
}

let template: Handlebars.TemplateDelegate | undefined;
async function suiteTemplate(): Promise<Handlebars.TemplateDelegate> {
  if (template) return template;
  const hb = Handlebars.create();
  hb.registerHelper('json', (v: unknown) => (Array.isArray(v) ? `[${v.map((x) => JSON.stringify(x)).join(', ')}]` : JSON.stringify(v)));
  const src = await readFile(path.join(HERE, 'templates/suite.ts.hbs'), 'utf8');
  template = hb.compile(src, { noEscape: true, strict: true });
  return template;
}

/** Renders every area to a string, keyed by file name (deterministic). */
export async function renderSuites(specDir?: string): Promise<Map<string, string>> {
  const model = await loadModel(specDir);
  const plan = await planSuites(model);
  const tpl = await suiteTemplate();
  const out = new Map<string, string>();
  for (const area of AREAS) {
    out.set(`${area}.ts`, tpl({ area, module: area, checks: plan.get(area)! }));
  }
  out.set('index.ts', renderIndex());
  return out;
}

function renderIndex(): string {
  const lines = [
    '// GENERATED by generators/suites.ts from spec/rules — do not edit by hand.',
    '',
    "import type { Check } from '../../src/checks/types.ts';",
    ...AREAS.map((a) => `import { checks as ${a} } from './${a}.ts';`),
    '',
    `export const generatedChecks: Check[] = [${AREAS.map((a) => `...${a}`).join(', ')}];`,
    '',
  ];
  return lines.join('\n');
}

/** Writes suites/generated/*.ts (removing stale generated files). */
export async function generateSuites(specDir?: string, outDir: string = SUITES_OUT_DIR): Promise<string[]> {
  const files = await renderSuites(specDir);
  await mkdir(outDir, { recursive: true });
  for (const f of await readdir(outDir)) {
    if (f.endsWith('.ts') && !files.has(f)) await rm(path.join(outDir, f));
  }
  const written: string[] = [];
  for (const [name, text] of files) {
    await writeFile(path.join(outDir, name), text);
    written.push(path.join(outDir, name));
  }
  return written;
}
