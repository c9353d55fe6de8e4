// The measured half of `rules --audit`: a rule is partial when a run shows its checks reach fewer
// operations than it governs, pass with only a warning, do not fail when no webhook arrives, or when a
// selftest missed its variants; the minimal-profile column says whether a check judged it there. Built
// on synthetic evidence (the classification), then once on the embedded reference through the command.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/index.ts';
import { captureIo } from '../cli/capture.ts';
import { loadModel } from '../model/index.ts';
import type { Model } from '../model/types.ts';
import { governedOperations, type RuleEvidence, type RunEvidence } from '../reach/index.ts';
import { selftestEvidence } from './selftest-evidence.ts';
import { specAudit, type AuditEvidence, type AuditRow } from './spec-audit.ts';

const anyCheck = (model: Model) => new Map(model.rules.map((r) => [r.id, [`check.of.${r.id}`]]));

/** Every testable rule judged, reaching every operation it governs; `edit` changes some rules. */
function evidence(model: Model, profile: string, edit: Record<string, Partial<RuleEvidence>> = {}): RunEvidence {
  const rules: Record<string, RuleEvidence> = {};
  for (const r of model.rules.filter((x) => x.testable)) rules[r.id] = { ran: true, judged: true, failed: false, checkFailed: false, reached: governedOperations(model, r), ...edit[r.id] };
  return { profile, rules };
}

const row = (rows: AuditRow[], id: string) => rows.find((r) => r.id === id)!;

describe('spec audit, measured', () => {
  it('keeps a rule exact when its checks reach all it governs, judge it, and fail when no webhook arrives', async () => {
    const model = await loadModel();
    const full = evidence(model, 'full');
    const audit = specAudit(model, anyCheck(model), undefined, undefined, undefined, { full, minimal: evidence(model, 'minimal') });
    expect(row(audit.rows, 'ERR-S2S-TOKEN-EXPIRED').strength).toBe('exact');
    expect(row(audit.rows, 'ERR-S2S-TOKEN-EXPIRED').minimal).toBe('judged');
    expect(audit.totals).toMatchObject({ measured: true, hidden_under_minimal: 0 });
    expect(audit.problems).toEqual([]);
  });

  it('does not hold an operation the profile cannot locate against a rule, and lists it; a located one not reached stays partial', async () => {
    const model = await loadModel();
    const governed = governedOperations(model, model.rule('ERR-S2S-SIGNATURE-INVALID'));
    expect(governed).toEqual(expect.arrayContaining(['renameCard', 'blockCard']));
    const reached = governed.filter((op) => op !== 'renameCard');
    const full = { ...evidence(model, 'full', { 'ERR-S2S-SIGNATURE-INVALID': { reached } }), unlocated: ['renameCard' as never] };
    const exact = row(specAudit(model, anyCheck(model), undefined, undefined, undefined, { full }).rows, 'ERR-S2S-SIGNATURE-INVALID');
    expect(exact).toMatchObject({ strength: 'exact', unlocated: ['renameCard'] });
    const missing = { ...evidence(model, 'full', { 'ERR-S2S-SIGNATURE-INVALID': { reached: reached.filter((op) => op !== 'blockCard') } }), unlocated: ['renameCard' as never] };
    const partial = row(specAudit(model, anyCheck(model), undefined, undefined, undefined, { full: missing }).rows, 'ERR-S2S-SIGNATURE-INVALID');
    expect(partial).toMatchObject({ strength: 'partial', partial: [expect.stringMatching(new RegExp(`reach ${governed.length - 2} of the ${governed.length - 1} the profile locates: not blockCard$`))] });
  });

  it('classes partial an operation not reached, a pass with a warning, a check that skips when no webhook arrives, a selftest miss', async () => {
    const model = await loadModel();
    const governed = governedOperations(model, model.rule('ERR-S2S-TOKEN-EXPIRED'));
    expect(governed.length).toBeGreaterThan(model.rule('ERR-S2S-TOKEN-EXPIRED').operations.length);
    const full = evidence(model, 'full', {
      'ERR-S2S-TOKEN-EXPIRED': { reached: governed.filter((op) => op !== 'listCards') },
      'LIMIT-TRANSPORT-TLS': { warned: 'base_url is plain HTTP' },
      'ALIAS-WEBHOOK-3DS-OWNER': { reached: [] },
    });
    // The silent run has only the checks that wait for webhooks: the other rules did not run there.
    const silentEdits = { 'ALIAS-WEBHOOK-3DS-OWNER': { judged: false, why: 'skipped: none arrived' }, 'EVENT-CARD-TRANSFER-ACTIVITY': { judged: true, checkFailed: true } };
    const silentAll = evidence(model, 'silent-webhooks', silentEdits);
    const silent: RunEvidence = { profile: silentAll.profile, rules: Object.fromEntries(Object.keys(silentEdits).map((id) => [id, silentAll.rules[id]])) };
    const minimal = evidence(model, 'minimal', { 'ERR-TOKEN-NO-SECRET-CONFIGURED': { judged: false, why: 'skipped: needs profile.special_clients.no_secret' } });
    const selftest = selftestEvidence({ profile: 'full', variants: [{ id: 'v.missed', kind: 'faulty', ok: false, breaks: ['ERR-TOKEN-GRANT-TYPE-INVALID'] }] }, 'st.json');
    const ev: AuditEvidence = { full, minimal, silent, selftest: [selftest] };
    const { rows, totals } = specAudit(model, anyCheck(model), undefined, undefined, undefined, ev);
    expect(row(rows, 'ERR-S2S-TOKEN-EXPIRED')).toMatchObject({ strength: 'partial', partial: [expect.stringMatching(/its checks reach .*: not listCards$/)] });
    expect(row(rows, 'LIMIT-TRANSPORT-TLS')).toMatchObject({ strength: 'partial', partial: [expect.stringMatching(/with a warning.*plain HTTP/)] });
    expect(row(rows, 'ALIAS-WEBHOOK-3DS-OWNER')).toMatchObject({ strength: 'partial', partial: [expect.stringMatching(/no webhook arrives.*none arrived/)] });
    // Failing when no webhook arrives is not "skips when nothing arrives"; the rule's own loose reason
    // (no control, no wait, no activity read: a warning after 90 s) is what classes it.
    expect(row(rows, 'EVENT-CARD-TRANSFER-ACTIVITY')).toMatchObject({ strength: 'loose' });
    expect(row(rows, 'EVENT-CARD-TRANSFER-ACTIVITY').partial ?? []).toEqual([]);
    expect(row(rows, 'ERR-TOKEN-GRANT-TYPE-INVALID')).toMatchObject({ strength: 'partial', partial: [expect.stringMatching(/selftest \(full\): no variant caught \(v\.missed\)/)] });
    expect(row(rows, 'ERR-TOKEN-NO-SECRET-CONFIGURED').minimal).toMatch(/special_clients/);
    expect(totals.hidden_under_minimal).toBe(1);
    expect(totals.exact + totals.partial + totals.loose + totals.untestable).toBe(totals.items);
  });

  it('reads a selftest result tolerantly and refuses a file that is not one', () => {
    const ev = selftestEvidence({ profile: 'minimal', variants: [{ id: 'a', kind: 'faulty', ok: true, breaks: ['R1'] }, { id: 'b', kind: 'benign', ok: true, breaks: [] }, { id: 'c', kind: 'faulty', ok: false, breaks: ['R1'], error: 'did not start' }, {}] }, 'f');
    expect(ev).toEqual({ profile: 'minimal', caught: new Map([['R1', ['a']]]), missed: new Map() });
    expect(() => selftestEvidence({ rules: [] }, 'other.json')).toThrow(/other\.json: not a selftest result/);
  });

  it('`rules --audit --static --selftest FILE` reads the selftest without running, and refuses a file that is not one before any run', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'audit-'));
    try {
      const good = path.join(dir, 'st.json');
      const bad = path.join(dir, 'bad.json');
      await writeFile(good, JSON.stringify({ profile: 'full', variants: [{ id: 'token.grant-type.not-checked', kind: 'faulty', ok: false, breaks: ['ERR-TOKEN-GRANT-TYPE-INVALID'] }] }));
      await writeFile(bad, '{"rules": []}');
      const c = captureIo();
      expect(await main(['rules', '--audit', '--static', '--json', '--selftest', good], c.io)).toBe(0);
      const audit = JSON.parse(c.out()) as { rows: AuditRow[]; totals: { measured: boolean } };
      expect(audit.totals.measured).toBe(false);
      expect(row(audit.rows, 'ERR-TOKEN-GRANT-TYPE-INVALID').strength).toBe('partial');
      const e = captureIo();
      expect(await main(['rules', '--audit', '--selftest', bad], e.io)).toBe(2);
      expect(e.err()).toMatch(/bad\.json: not a selftest result/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('`rules --audit` measures on the embedded reference and reads a selftest result: the webhook delivery method, plain-HTTP TLS and a missed variant are partial, no exact rule lacks a variant', async () => {
    // A selftest result that missed the grant-type variant: the rule is then partial, whatever the runs show.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'audit-'));
    const file = path.join(dir, 'selftest.json');
    await writeFile(file, JSON.stringify({ profile: 'full', variants: [{ id: 'token.grant-type.not-checked', kind: 'faulty', ok: false, breaks: ['ERR-TOKEN-GRANT-TYPE-INVALID'] }] }));
    const c = captureIo();
    try {
      expect(await main(['rules', '--audit', '--json', '--selftest', file], c.io)).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const { rows, totals, problems } = JSON.parse(c.out()) as { rows: AuditRow[]; totals: Record<string, number | boolean>; problems: string[] };
    expect(problems).toEqual([]);
    expect(totals.measured).toBe(true);
    // The 3DS owner alias is owed once create3dsChallenge succeeded (x-emits-webhooks): no longer partial.
    expect(row(rows, 'ALIAS-WEBHOOK-3DS-OWNER').strength).toBe('exact');
    expect(row(rows, 'EVENT-WEBHOOK-POST')).toMatchObject({ strength: 'partial', partial: [expect.stringMatching(/no webhook arrives/)] });
    expect(row(rows, 'LIMIT-TRANSPORT-TLS').strength).toBe('partial');
    expect(row(rows, 'ERR-TOKEN-GRANT-TYPE-INVALID')).toMatchObject({ strength: 'partial', minimal: 'judged', reached: ['createToken'], partial: [expect.stringMatching(/selftest \(full\): no variant caught \(token\.grant-type\.not-checked\)/)] });
    expect(row(rows, 'ERR-TOKEN-CLIENT-ID-MISSING')).toMatchObject({ strength: 'exact', minimal: 'judged', reached: ['createToken'] });
    expect(row(rows, 'STATE-3DS-DECIDE-PENDING').minimal).toMatch(/needs control operation/);
    for (const r of rows.filter((x) => x.strength === 'exact' && x.side === 'server')) expect(r.variants.length > 0 || !!r.no_variant_reason, r.id).toBe(true);
  }, 180_000);
});
