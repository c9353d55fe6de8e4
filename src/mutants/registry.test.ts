import { describe, expect, it } from 'vitest';
import { loadModel } from '../model/index.ts';
import { FAULT_POINTS } from '../reference/index.ts';
import { ConfigError } from '../errors/index.ts';
import { RULE_PLACEMENT } from '../generated/placement.ts';
import { areaNames, bankDigest, buildMutantBank, MUTANT_BANK, PENDING_BANK, selectVariants, variantsById } from './registry.ts';
import { ulidOf } from './ulid.ts';
import { brokenRules, describeVariant, op, webhook } from './variant.ts';

describe('mutant bank (registry)', () => {
  it('has at least 40 faulty and 10 benign variants', () => {
    expect(MUTANT_BANK.filter((v) => v.kind === 'faulty').length).toBeGreaterThanOrEqual(40);
    expect(MUTANT_BANK.filter((v) => v.kind === 'benign').length).toBeGreaterThanOrEqual(10);
  });

  it('has unique ids', () => {
    const ids = MUTANT_BANK.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('each faulty variant breaks exactly one rule; benign variants break none', () => {
    for (const v of MUTANT_BANK) {
      expect(brokenRules(v), v.id).toHaveLength(v.kind === 'faulty' ? 1 : 0);
    }
  });

  it('every broken rule id exists in the model and is testable', async () => {
    const model = await loadModel();
    for (const v of MUTANT_BANK) {
      for (const id of brokenRules(v)) {
        const rule = model.rule(id);
        expect(rule.id).toBe(id);
        expect(rule.testable, `${v.id} breaks ${id}, which the model marks untestable`).toBe(true);
      }
    }
  });

  it('names real checks in reach: checks that exist and judge the broken rule or name it when they fail', async () => {
    const { loadChecks } = await import('../../suites/index.ts');
    const ids = new Set((await loadChecks()).map((c) => c.id));
    const reaching = [...MUTANT_BANK, ...PENDING_BANK].filter((v) => v.reach?.length);
    for (const v of reaching) for (const c of v.reach!) expect(ids.has(c), `${v.id} reach names ${c}, no check`).toBe(true);
  });

  it('uses only known fault points and says how it mutates', () => {
    const known = new Set<string>(FAULT_POINTS);
    for (const v of MUTANT_BANK) {
      for (const f of v.options.faults ?? []) expect(known.has(f), `${v.id}: unknown fault point ${f}`).toBe(true);
      // realRateLimit: the run keeps the reference's own limit where every other run gets the short window.
      // tls: the run serves HTTPS with the variant's protocol bounds (run-variant.ts).
      // pciAuth: the card-tokenization environment requires credentials (and the profile says which).
      const mutates = (v.options.faults?.size ?? 0) > 0 || !!v.options.transform || v.options.latencyMs !== undefined || !!v.options.rateLimit || !!v.proxy || !!v.realRateLimit || !!v.tls || !!v.options.pciAuth;
      expect(mutates, `${v.id} changes nothing`).toBe(true);
      expect(v.description.length).toBeGreaterThan(10);
    }
  });

  it('renders the operations and webhooks a description names from the model', async () => {
    const model = await loadModel();
    const getConfig = model.operation('getConfig');
    expect(describeVariant({ description: `${op('getConfig')} on ${webhook('user')}` }, model)).toBe(`${getConfig.method.toUpperCase()} ${getConfig.path} on ${model.webhookPath('user')}`);
    for (const v of [...MUTANT_BANK, ...PENDING_BANK]) expect(describeVariant(v, model), v.id).not.toMatch(/\{(op|path|message|webhook):/);
  });

  it('places every variant in the area and topic of the rule it breaks (benign: benign)', () => {
    for (const v of MUTANT_BANK) {
      if (v.kind === 'benign') expect([v.area, v.topic], v.id).toEqual(['benign', 'benign']);
      else expect({ area: v.area, topic: v.topic }, v.id).toEqual(RULE_PLACEMENT[v.breaks]);
    }
  });

  it('--area s2s selects every default-bank variant breaking an s2s rule, wherever it is declared', () => {
    const s2sRules = Object.entries(RULE_PLACEMENT).filter(([, p]) => p.topic === 's2s').map(([id]) => id);
    const expected = MUTANT_BANK.filter((v) => v.kind === 'faulty' && s2sRules.includes(v.breaks)).map((v) => v.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(selectVariants(['s2s']).variants.map((v) => v.id)).toEqual(expected);
    // Declared among the auth-coverage variants (variants/coverage.ts), it breaks AUTH-S2S-BEARER-ACCEPTED.
    expect(expected).toContain('s2s.bearer.config-refused');
  });

  it('selects every default-bank variant by some area, and the opt-in sets only by name', () => {
    const names = areaNames().filter((n) => n !== 'pending' && n !== 'slow');
    const selected = new Set(names.flatMap((n) => selectVariants([n]).variants.map((v) => v.id)));
    expect(MUTANT_BANK.filter((v) => !selected.has(v.id)).map((v) => v.id)).toEqual([]);
    expect(selectVariants(['pending', 'slow']).variants.map((v) => v.id)).toEqual(PENDING_BANK.map((v) => v.id));
  });

  it('maps a former subject area to its successor with a notice, and refuses a retired or unknown one', () => {
    const renamed = selectVariants(['threeds']);
    expect(renamed.variants.map((v) => v.id)).toEqual(selectVariants(['3ds']).variants.map((v) => v.id));
    expect(renamed.notices.join()).toMatch(/--area 3ds/);
    expect(() => selectVariants(['coverage'])).toThrow(ConfigError);
    expect(() => selectVariants(['coverage'])).toThrow(/no longer an area/);
    expect(() => selectVariants(['nonsense'])).toThrow(/unknown area "nonsense"/);
  });

  it('spreads faulty variants over every area of the brief', () => {
    const prefixes = new Set(MUTANT_BANK.filter((v) => v.kind === 'faulty').map((v) => v.id.split('.')[0]));
    for (const p of ['token', 's2s', 'idp', 'user-token', 'identity', 'isolation', 'errors', 'schema', 'alias', 'version', 'sepa', '3ds', 'p2c', 'withdrawal', 'ratelimit', 'timeout']) {
      expect(prefixes.has(p), `no faulty variant in area ${p}`).toBe(true);
    }
  });

  it('builds fresh variants with the same ids and digest', () => {
    const again = buildMutantBank();
    expect(again.map((v) => v.id)).toEqual(MUTANT_BANK.map((v) => v.id));
    expect(bankDigest(again)).toBe(bankDigest(MUTANT_BANK));
    expect(again[0]).not.toBe(MUTANT_BANK[0]);
  });

  it('looks variants up by id and refuses unknown ids', () => {
    expect(variantsById(['benign.chunked'])[0].id).toBe('benign.chunked');
    expect(() => variantsById(['no.such.variant'])).toThrow(/unknown mutant variant/);
  });

  it('makes ULID-like ids deterministically', () => {
    const u = '0d8f1a52-3c44-4e0b-9a1e-6f1b2c3d4e5f';
    expect(ulidOf(u)).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(ulidOf(u)).toBe(ulidOf(u));
    expect(ulidOf(u)).not.toBe(ulidOf('1d8f1a52-3c44-4e0b-9a1e-6f1b2c3d4e5f'));
  });
});
