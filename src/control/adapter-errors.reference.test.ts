// The user's adapter is the user's: against the embedded reference, reached through control adapters
// a user would write (a JS module that forwards to the control API, a YAML file mapping onto it), one
// operation is broken on the adapter's side: the module's code throws, the YAML maps it onto a loopback
// "vendor" endpoint that answers 500, or onto one that answers the wrong shape. Each is an adapter
// error naming the operation and the adapter file, no rule fails, coverage is no higher than with the
// operation left out of the adapter, and the run exits non-zero. The same working adapter still lets a
// genuine target fault fail its rule (not an adapter error).
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type ConformanceResult } from '../api/index.ts';
import { SCHEMA_FILES, validatorFor } from '../baseline/index.ts';
import { loadModel } from '../model/index.ts';
import { startReference } from '../reference/index.ts';
import type { Reporter } from '../events/index.ts';
import { ConsoleReporter, HtmlReporter, JsonReporter, JunitReporter } from '../report/index.ts';
import { controlOperations } from './index.ts';

const SEPA_CHECKS = ['states.sepa.direct-activation', 'states.sepa.webhook-active', 'states.sepa.active-retrieve', 'states.sepa.model'];
const USES_COMPLETION = ['states.sepa.webhook-active', 'states.sepa.active-retrieve', 'states.sepa.model'];
const THREE_DS_CHECKS = ['states.3ds.decide-pending', 'states.3ds.no-replay', 'states.3ds.model'];

let reference: Awaited<ReturnType<typeof startReference>>;
let vendor: Server;
let vendorUrl = '';
let dir = '';
const vendorCalls: string[] = [];

/** A JS module adapter forwarding every operation to the control API, except those given as source. */
function moduleAdapter(override: Record<string, string> = {}, leaveOut: string[] = []): string {
  const ops = [...controlOperations(model).values()].filter((op) => !leaveOut.includes(op.id));
  const fns = ops.map((op) => override[op.id]
    ? `  ${op.id}: ${override[op.id]},`
    : `  async ${op.id}(input, { http, profile }) {
    const path = ${JSON.stringify(op.path)}.replace(/\\{(\\w+)\\}/g, (_m, k) => encodeURIComponent(input.params[k]));
    const res = await http.send({ method: ${JSON.stringify(op.method)}, path: profile.control_url + path, body: input.body ?? {} });
    if (res.status >= 300) throw new Error('control ' + ${JSON.stringify(op.id)} + ' answered ' + res.status);
    return res.status === 204 ? undefined : res.json;
  },`);
  return `export const operations = {\n${fns.join('\n')}\n};\n`;
}

/** A YAML adapter mapping every operation onto the control API, except those mapped onto the vendor. */
function yamlAdapter(onVendor: Record<string, string>): string {
  const lines = ['version: 1', 'base_url: "{{profile.base_url}}/__control"', 'operations:'];
  for (const op of controlOperations(model).values()) {
    const at = onVendor[op.id] ? `${vendorUrl}${onVendor[op.id]}` : op.path.replace(/\{(\w+)\}/g, '{{$1}}');
    const body = Object.fromEntries(op.bodyFields.map((f) => [f, `{{${f}}}`]));
    lines.push(`  ${op.id}: { method: ${op.method}, path: "${at}", body: ${JSON.stringify(body)} }`);
  }
  return `${lines.join('\n')}\n`;
}

let model: Awaited<ReturnType<typeof loadModel>>;
beforeAll(async () => {
  model = await loadModel();
  reference = await startReference();
  dir = await mkdtemp(path.join(tmpdir(), 'bc-adapter-errors-'));
  vendor = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      vendorCalls.push(`${req.method} ${req.url}`);
      if (req.url?.startsWith('/broken')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"detail":"Internal Server Error"}');
      } else {
        // A challenge in the vendor's own shape, which the adapter file forgot to map (no `result`).
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end('{"challenge_ref":"ch-1","valid_until":"2030-01-01T00:00:00Z"}');
      }
    });
  });
  await new Promise<void>((r) => vendor.listen(0, '127.0.0.1', r));
  vendorUrl = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
});
afterAll(async () => {
  vendor.closeAllConnections();
  await new Promise((r) => vendor.close(r));
  await reference.close();
});

async function run(adapterFile: string, checks: string[], reporters: Reporter[] = [], ref = reference): Promise<ConformanceResult> {
  return runConformance({ profile: { ...ref.profile, control_adapter: adapterFile }, env: {}, checks, seed: 1, reporters });
}

/** Every adapter error names the operation and the adapter file; no rule fails; the run exits non-zero. */
function expectAdapterErrors(out: ConformanceResult, ids: string[], operation: string, file: string, problem: string, detail: RegExp) {
  const by = Object.fromEntries(out.results.map((r) => [r.checkId, r]));
  for (const id of ids) {
    const r = by[id];
    expect(r.verdict, `${id}: ${r.failure?.message ?? r.reason ?? ''}`).toBe('blocked');
    expect(r.blocked?.adapter).toEqual({ source: expect.stringContaining(file), operation, problem });
    expect(r.blocked?.rules).toEqual([]);
    expect(r.blocked?.message).toMatch(new RegExp(`^control adapter (file|module) .*${file.replace(/\./g, '\\.')}, operation ${operation}: `));
    expect(r.blocked?.message).toMatch(detail);
  }
  expect(out.results.filter((r) => r.verdict === 'fail').map((r) => r.checkId)).toEqual([]);
  expect(out.rules.filter((r) => r.verdict === 'fail').map((r) => r.id)).toEqual([]);
  expect(out.summary.adapterErrors).toBe(ids.length);
  expect(out.exitCode).not.toBe(0);
}

describe('an adapter error is not a spec failure', () => {
  it('a JS module adapter whose code throws: adapter errors (states.sepa.model too), in every report, coverage no higher than without the operation', async () => {
    const broken = path.join(dir, 'throws.mjs');
    // The user's code reads its input wrongly (inputs arrive as { params, body }).
    await writeFile(broken, moduleAdapter({ completeSepaActivation: 'async (input) => { const id = input.user_id.trim(); return undefined; }' }));
    const json = path.join(dir, 'throws.json');
    const junit = path.join(dir, 'throws.xml');
    const html = path.join(dir, 'throws.html');
    let text = '';
    const out = await run(broken, SEPA_CHECKS, [new JsonReporter(json), new JunitReporter(junit), new HtmlReporter(html), new ConsoleReporter({ color: false, stream: { write: (s: string) => (text += s) } })]);
    expectAdapterErrors(out, USES_COMPLETION, 'completeSepaActivation', 'throws.mjs', 'threw', /threw TypeError: Cannot read properties of undefined/);
    expect(out.results.find((r) => r.checkId === 'states.sepa.direct-activation')?.verdict).toBe('pass');
    expect(out.rootCauses).toEqual([expect.objectContaining({ kind: 'blocking', id: 'control:completeSepaActivation', adapter: expect.stringContaining('throws.mjs'), rules: [] })]);

    // Coverage: the rules only the blocked checks judge are not exercised; no higher than with the operation left out.
    const without = path.join(dir, 'without.mjs');
    await writeFile(without, moduleAdapter({}, ['completeSepaActivation']));
    const absent = await run(without, SEPA_CHECKS);
    expect(absent.results.filter((r) => USES_COMPLETION.includes(r.checkId)).map((r) => r.verdict)).toEqual(['skip', 'skip', 'skip']);
    expect(out.summary.coverage!.rules.exercised).toBeLessThanOrEqual(absent.summary.coverage!.rules.exercised);
    const working = path.join(dir, 'working.mjs');
    await writeFile(working, moduleAdapter());
    const ok = await run(working, SEPA_CHECKS);
    expect(ok.results.map((r) => [r.checkId, r.verdict]).filter(([, v]) => v !== 'pass')).toEqual([]);
    expect(out.summary.coverage!.rules.exercised).toBeLessThan(ok.summary.coverage!.rules.exercised);

    // Reports: results.json (valid against its schema), JUnit and the console tell it apart.
    const doc = JSON.parse(await readFile(json, 'utf8'));
    const validate = validatorFor(SCHEMA_FILES.results);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.checks.find((c: { checkId: string }) => c.checkId === 'states.sepa.model').blocked.adapter).toMatchObject({ operation: 'completeSepaActivation', problem: 'threw' });
    const xml = await readFile(junit, 'utf8');
    expect(xml.match(/type="AdapterError"/g)).toHaveLength(USES_COMPLETION.length);
    expect(text).toMatch(/ADAPTER ERROR states\.sepa\.model — control adapter module .*throws\.mjs, operation completeSepaActivation: threw TypeError/);
    expect(text).toMatch(/3 blocked \(3 by a control adapter error\)/);
    const page = await readFile(html, 'utf8');
    expect(page.match(/data-tag="adapter-error"/g)?.length).toBeGreaterThanOrEqual(USES_COMPLETION.length);
  });

  it('a YAML adapter whose vendor endpoint answers 500: a refused call, an adapter error', async () => {
    const file = path.join(dir, 'vendor-500.yaml');
    await writeFile(file, yamlAdapter({ completeSepaActivation: '/broken/sepa' }));
    const out = await run(file, SEPA_CHECKS);
    expect(vendorCalls.some((c) => c.startsWith('POST /broken/sepa'))).toBe(true);
    expectAdapterErrors(out, USES_COMPLETION, 'completeSepaActivation', 'vendor-500.yaml', 'refused', /answered HTTP 500: \{"detail":"Internal Server Error"\}/);
  });

  it('a YAML adapter answering create3dsChallenge in the vendor\'s shape, unmapped: a malformed answer, an adapter error', async () => {
    const file = path.join(dir, 'malformed.yaml');
    await writeFile(file, yamlAdapter({ create3dsChallenge: '/challenges' }));
    const out = await run(file, THREE_DS_CHECKS);
    expectAdapterErrors(out, THREE_DS_CHECKS, 'create3dsChallenge', 'malformed.yaml', 'malformed', /not the success answer spec\/control\.yaml gives for create3dsChallenge: .*transaction_id/);
  });

  it('a genuine target fault under the working adapter still fails its rule, not as an adapter error', async () => {
    const faulty = await startReference({ faults: new Set(['sepa.allow-wrong-path']) });
    try {
      const working = path.join(dir, 'working-faulty.mjs');
      await writeFile(working, moduleAdapter());
      const out = await run(working, ['states.sepa.wrong-path', 'states.sepa.model'], [], faulty);
      for (const r of out.results) {
        expect(r.verdict, r.checkId).toBe('fail');
        expect(r.blocked).toBeUndefined();
      }
      expect(out.rules.find((r) => r.id === 'STATE-SEPA-WRONG-PATH')?.verdict).toBe('fail');
      expect(out.summary.adapterErrors).toBeUndefined();
      expect(out.summary.coverage!.rules.exercised).toBeGreaterThan(0);
    } finally {
      await faulty.close();
    }
  });
});
