import { describe, it, expect, beforeAll } from 'vitest';
import { cp, mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadModelFrom, DEFAULT_SPEC_DIR } from './load.ts';
import { ModelError } from '../errors/index.ts';
import type { Model } from './types.ts';

async function specCopy(edit: (dir: string) => Promise<void>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'baas-spec-'));
  await cp(DEFAULT_SPEC_DIR, dir, { recursive: true });
  await edit(dir);
  return dir;
}

async function expectModelError(dir: string, file: string, pointer: RegExp | string, problem: RegExp) {
  try {
    await loadModelFrom(dir);
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    const e = err as ModelError;
    expect(e.exitCode).toBe(2);
    expect(e.file).toBe(file);
    if (typeof pointer === 'string') expect(e.pointer).toBe(pointer);
    else expect(e.pointer).toMatch(pointer);
    expect(e.message).toMatch(problem);
    return;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  throw new Error('expected a ModelError');
}

describe('the spec model', () => {
  let model: Model;
  beforeAll(async () => {
    model = await loadModelFrom(DEFAULT_SPEC_DIR);
  });

  it('holds every row of the section 7 error tables with the spec texts', () => {
    const errors = model.rules.filter((r) => r.kind === 'error');
    // The four tables (token, S2S, identity provider, user token), each row's id naming its table, plus
    // other rules and the 429. No row count is pinned: a row added to spec/rules is the whole change.
    const prefix: Record<string, string> = { token: 'ERR-TOKEN-', s2s: 'ERR-S2S-', idp: 'ERR-IDP-', user_token: 'ERR-USER-TOKEN-' };
    for (const [table, p] of Object.entries(prefix)) {
      const rows = errors.filter((r: any) => r.table === table);
      expect(rows.length, table).toBeGreaterThan(0);
      for (const r of rows) expect(r.id, table).toMatch(new RegExp(`^${p}`));
    }
    expect(model.errorRule('ERR-TOKEN-CLIENT-ID-MISSING')).toMatchObject({ table: 'token', status: 400, message: 'client id is required' });
    const multi = model.errorRule('ERR-S2S-USER-IDENTIFIER-MULTIPLE');
    expect(multi).toMatchObject({ status: 400, reason: 'ErrorInvalidField', message: 'Multiple user identifiers provided in headers. Only one is allowed', category: 'CategoryValidationFailure', details: ['user_identifier'] });
    expect(model.errorRule('ERR-IDP-APP-NOT-REGISTERED').category).toBe('CategoryInternalFailure');
    expect(model.errorRule('ERR-RATE-LIMITED').category).toBe('CategoryTransientFailure');
  });

  it('records what the spec does not show as unspecified, not invented', () => {
    const notFound3ds = model.errorRule('ERR-3DS-NOT-FOUND');
    expect(notFound3ds.message).toBeNull();
    expect(notFound3ds.unspecified?.length).toBeGreaterThan(0);
    const approve = model.operations.get('approve3ds')!;
    expect(approve.pathUnspecified).toBe(true);
    // Section 4 shows no headers for the card-tokenization environment nor corporate registration and
    // login (x-auth-unspecified): the profile's operation_auth says; every other operation's auth is shown.
    expect([...model.operations.values()].filter((o) => o.authUnspecified).map((o) => o.operationId).sort()).toEqual(['loginCorporate', 'registerCorporate', 'tokenizeCard']);
  });

  it('has one alias rule per section 9 mapping line, with directions', () => {
    const pairs = model.aliases.map((a) => `${a.direction}:${a.old}->${a.new}`);
    for (const expected of ['request:wallet_address->user_address', 'response:id->user_id', 'response:owner->user_address',
      'response:account_address->wallet_address', 'response:to_address->destination_address', 'request:deposit_address->destination_address',
      'request:owner->user_address', 'request:account_address->wallet_address', 'response:address->recipient_address']) {
      expect(pairs).toContain(expected);
    }
  });

  it('resolves every rule operation to an OpenAPI operation and compiles validators once', () => {
    for (const r of model.rules) for (const op of r.operations) expect(model.operations.has(op)).toBe(true);
    expect(model.validator('#/components/schemas/ErrorBody')).toBe(model.errorBodyValidator);
    expect(model.limits.s2s_token_validity.value).toBe(172800);
  });
});

describe('a malformed model file', () => {
  it('with bad YAML is reported with the file and position', async () => {
    const dir = await specCopy(async (d) => {
      await writeFile(path.join(d, 'rules/limits.yaml'), 'limits:\n  - { id: X\n');
    });
    await expectModelError(dir, 'spec/rules/limits.yaml', '', /spec\/rules\/limits\.yaml:\d+ at \/: invalid YAML/);
  });

  it('that violates its JSON Schema is reported with the JSON pointer', async () => {
    const dir = await specCopy(async (d) => {
      const f = path.join(d, 'rules/errors.yaml');
      const text = await readFile(f, 'utf8');
      await writeFile(f, text.replace('status: 400, reason: ErrorMissingField, message: "client id is required"', 'status: "four hundred", reason: ErrorMissingField, message: "client id is required"'));
    });
    await expectModelError(dir, 'spec/rules/errors.yaml', '/rules/0/status', /must be integer/);
  });

  it('holds the client rules with their level and quote, apart from the server rules', async () => {
    const model = await loadModelFrom(DEFAULT_SPEC_DIR);
    const r = model.clientRule('CLIENT-TOKEN-BACKOFF');
    expect(r).toMatchObject({ side: 'client', section: '8', level: 'required', testable: true });
    expect(r.quote).toMatch(/exponential backoff/);
    expect(model.rules.some((x) => (x.id as string) === r.id)).toBe(false);
  });

  it('with a client rule naming a header section 5 does not have names the pointer', async () => {
    const dir = await specCopy(async (d) => {
      const f = path.join(d, 'rules/client.yaml');
      await writeFile(f, (await readFile(f, 'utf8')).replace('facts: { header: X-Chain-Id }', 'facts: { header: X-Chain }'));
    });
    await expectModelError(dir, 'spec/rules/client.yaml', /^\/rules\/\d+\/facts\/header$/, /header "X-Chain" is not a section 5 header/);
  });

  it('with a client rule of another level is refused by the schema', async () => {
    const dir = await specCopy(async (d) => {
      const f = path.join(d, 'rules/client.yaml');
      await writeFile(f, (await readFile(f, 'utf8')).replace('    level: required', '    level: optional'));
    });
    await expectModelError(dir, 'spec/rules/client.yaml', '/rules/0/level', /must be equal to one of the allowed values/);
  });

  it('with a duplicate rule id names both places', async () => {
    const dir = await specCopy(async (d) => {
      const f = path.join(d, 'rules/limits.yaml');
      const text = await readFile(f, 'utf8');
      await writeFile(f, text.replace('id: LIMIT-3DS-WINDOW', 'id: LIMIT-S2S-TOKEN-VALIDITY'));
    });
    // The pointer of the renamed entry, found in the copy (the catalogue's order is not this test's business).
    const ids = [...(await readFile(path.join(dir, 'rules/limits.yaml'), 'utf8')).matchAll(/id: (LIMIT-[A-Z0-9-]+)/g)].map((m) => m[1]);
    const second = ids.lastIndexOf('LIMIT-S2S-TOKEN-VALIDITY');
    expect(second).toBeGreaterThan(0);
    await expectModelError(dir, 'spec/rules/limits.yaml', `/limits/${second}/id`, /duplicate rule id "LIMIT-S2S-TOKEN-VALIDITY"/);
  });

  it('with a rule pointing at a missing operation names the operation', async () => {
    const dir = await specCopy(async (d) => {
      const f = path.join(d, 'rules/auth.yaml');
      const text = await readFile(f, 'utf8');
      await writeFile(f, text.replace('    operations: [createToken]\n    summary: "POST /api/v1/token returns', '    operations: [createTokens]\n    summary: "POST /api/v1/token returns'));
    });
    await expectModelError(dir, 'spec/rules/auth.yaml', '/rules/0/operations/0', /"createTokens", which does not exist/);
  });

  it('with two readings of one rule under the same id names the second', async () => {
    const dir = await specCopy(async (d) => {
      const f = path.join(d, 'rules/auth.yaml');
      const text = await readFile(f, 'utf8');
      // The last email-when-present is AUTH-IDP-EXCHANGE's, whose first reading is user-address.
      const at = text.lastIndexOf('      - id: email-when-present\n');
      await writeFile(f, `${text.slice(0, at)}      - id: user-address\n${text.slice(at + '      - id: email-when-present\n'.length)}`);
    });
    await expectModelError(dir, 'spec/rules/auth.yaml', /readings\/1\/id$/, /two readings with id "user-address"/);
  });

  it('with a field both checked only when present and required is refused (a note and the audit cannot disagree)', async () => {
    const dir = await specCopy(async (d) => {
      const f = path.join(d, 'openapi.yaml');
      const text = await readFile(f, 'utf8');
      await writeFile(f, text.replace('      required: [id, user_id, user_address, wallet_address]\n', '      required: [id, user_id, user_address, wallet_address, email]\n'));
    });
    await expectModelError(dir, 'spec/openapi.yaml', '/components/schemas/User/x-checked-when-present', /names "email", which User also lists as required/);
  });

  it('with a category that disagrees with the section 7 table is refused', async () => {
    const dir = await specCopy(async (d) => {
      const f = path.join(d, 'rules/errors.yaml');
      const text = await readFile(f, 'utf8');
      await writeFile(f, text.replace('cause: "client_id missing"', 'category: CategoryUnauthorized, cause: "client_id missing"'));
    });
    await expectModelError(dir, 'spec/rules/errors.yaml', '/rules/0/category', /disagrees/);
  });

  it('with a broken OpenAPI document is refused', async () => {
    const dir = await specCopy(async (d) => {
      await writeFile(path.join(d, 'openapi.yaml'), 'openapi: 3.1.0\ninfo: {}\npaths: 12\n');
    });
    await expectModelError(dir, 'spec/openapi.yaml', '', /not a valid OpenAPI document/);
  });
});
