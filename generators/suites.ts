// Generates suites/generated/<area>.ts from the model: one check per testable rule, joined with the
// hand-written driver for that rule (suites/drivers/<area>.ts). Coverage cannot drop silently: a
// testable rule with no driver (and not covered by another driver's alsoCovers) is an error, and so
// is a driver for a rule that no longer exists. Output is deterministic (model order, fixed areas).

import { mkdir, readFile, writeFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Handlebars from 'handlebars';
import { loadModel, renderSpecText } from '../src/model/index.ts';
import type { Model, Rule, ErrorRule } from '../src/model/types.ts';
import type { Driver, MultiRuleDrivers } from '../suites/drivers/driver.ts';
import { loadPlacement, type Placement } from './placement.ts';

/** A drivers module as imported at run time: keyed by rule id, or by operationId in the schema area. */
type Drivers = Readonly<Record<string, Driver>>;

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
export const SUITES_OUT_DIR = path.join(ROOT, 'suites/generated');

/** Areas in report order; each has suites/drivers/<area>.ts and suites/generated/<area>.ts (spec/placement.yaml `areas`). */
export type Area = string;

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
  /** The record the check's run comes from: the area's per-rule drivers or the multi-rule drivers (suites/models). */
  source: 'drivers' | 'multiRuleDrivers';
  driverKey: string;
}

async function loadDrivers(area: Area): Promise<Drivers> {
  const file = path.join(ROOT, 'suites/drivers', `${area}.ts`);
  const mod = await import(pathToFileURL(file).href);
  if (!mod.drivers || typeof mod.drivers !== 'object') throw new Error(`suites/drivers/${area}.ts exports no \`drivers\` record`);
  return mod.drivers as Drivers;
}

function checkOf(id: string, title: string, area: Area, section: string, rules: string[], d: Driver, driverKey: string, source: RenderedCheck['source'] = 'drivers'): RenderedCheck {
  return {
    id, title, area, section,
    rules: [...new Set(rules)],
    safe: d.safe === true,
    exclusive: d.exclusive === true,
    needs: [...(d.needs ?? [])],
    source,
    driverKey,
  };
}

async function loadMultiRuleDrivers(): Promise<MultiRuleDrivers> {
  const mod = await import(pathToFileURL(path.join(ROOT, 'suites/models/index.ts')).href);
  if (!mod.multiRuleDrivers || typeof mod.multiRuleDrivers !== 'object') throw new Error('suites/models/index.ts exports no `multiRuleDrivers` record');
  return mod.multiRuleDrivers as MultiRuleDrivers;
}

/** The specDir placement.yaml (default: the project's spec/) checked against `model`. */
export const placementFor = (model: Model, specDir: string = path.join(ROOT, 'spec')): Promise<Placement> => loadPlacement(specDir, model);

/** Builds the per-area check lists (no file I/O besides importing drivers and reading the placement). Throws on any coverage gap. */
export async function planSuites(model: Model, placement?: Placement): Promise<Map<Area, RenderedCheck[]>> {
  const place = placement ?? (await placementFor(model));
  const AREAS = place.areas;
  const areaOf = (r: Rule) => place.areaOf(r);
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
    if (area === 'schema' && place.perOperation.includes(rule.id)) continue; // per-operation checks below
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
    plan.get(area)!.push(checkOf(place.checkIdFor(rule), d.title !== undefined ? renderSpecText(d.title, model) : titleOf(rule), area, rule.section, [rule.id, ...(d.alsoCovers ?? [])], d, rule.id));
  }

  // Schema area: one check per operation whose path the spec shows (drivers keyed by operationId).
  const schemaDrivers = driversByArea.get('schema')!;
  const schemaRules = place.perOperation.filter((id) => byId.get(id)?.testable);
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

  // Multi-rule checks (suites/models): placed in the area of their first rule, with its section.
  for (const [id, d] of Object.entries(await loadMultiRuleDrivers())) {
    const unknown = d.rules.filter((r) => !byId.has(r));
    if (!d.rules.length || unknown.length) {
      errors.push(`suites/models/index.ts: check ${id} ${d.rules.length ? `names unknown rule(s) ${unknown.join(', ')}` : 'names no rule'}`);
      continue;
    }
    const first = byId.get(d.rules[0])!;
    const area = areaOf(first);
    if (!id.startsWith(`${area}.`)) errors.push(`suites/models/index.ts: check ${id} is placed in area ${area} (the area of its first rule ${first.id}); its id must start with "${area}."`);
    plan.get(area)!.push(checkOf(id, d.title !== undefined ? renderSpecText(d.title, model) : titleOf(first), area, first.section, [...d.rules], d, id, 'multiRuleDrivers'));
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
  const plan = await planSuites(model, await placementFor(model, specDir));
  const tpl = await suiteTemplate();
  const out = new Map<string, string>();
  for (const [area, checks] of plan) {
    out.set(`${area}.ts`, tpl({ area, module: area, checks, multi: checks.some((c) => c.source === 'multiRuleDrivers') }));
  }
  out.set('index.ts', renderIndex([...plan.keys()]));
  return out;
}

function renderIndex(AREAS: readonly Area[]): string {
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
