import { createHash } from 'node:crypto';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { CheckResult, RecordedRequest, RunEvent } from '../events/index.ts';
import { loadModel } from '../model/index.ts';
import { startReference } from '../reference/index.ts';
import { RunCollector } from './collect.ts';
import { replayCurl } from './html-curl.ts';
import { buildHtml } from './html.ts';
import { buildSelftestHtml } from './html-selftest.ts';
import { majorSection } from './html-view.ts';

const BASE = 'http://127.0.0.1:9';

/** Runs a command line in bash with `env`, returning what a fake curl on PATH saw as its arguments. */
function curlArgs(command: string, env: Record<string, string>): string[] {
  const fake = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }; `;
  const out = spawnSync('bash', ['-c', fake + command], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });
  expect(out.status, out.stderr).toBe(0);
  return out.stdout.split('\0').slice(0, -1);
}

describe('replayable curl', () => {
  it('reads the token and the client secret from the environment, and the shell gets them back exactly', async () => {
    const model = await loadModel();
    const req: RecordedRequest = {
      method: 'GET',
      url: `${BASE}/api/v1/user`,
      headers: { 'user-agent': 'baas-conform', 'accept-encoding': 'gzip, br', authorization: 'Bearer ***', 'x-chain-id': '84532', 'x-user-id': "it's-me" },
    };
    const r = replayCurl(model, req, BASE);
    expect(r.command).not.toContain('***');
    const args = curlArgs(r.command, { BAAS_TOKEN: 'tok en$`x' });
    expect(args).toContain('authorization: Bearer tok en$`x');
    expect(args).toContain("x-user-id: it's-me");
    expect(args.some((a) => a.startsWith('user-agent') || a.startsWith('accept-encoding'))).toBe(false);
    expect(args).toContain('--compressed');
    // An identity header: the S2S token endpoint, its path and grant_type from the model.
    expect(r.mint).toHaveLength(1);
    expect(r.mint[0]).toContain(`${BASE}${model.operations.get('createToken')!.path}`);
    expect(r.env).toEqual(expect.arrayContaining(['BAAS_CLIENT_ID', 'BAAS_CLIENT_SECRET']));

    const token = replayCurl(model, { method: 'POST', url: `${BASE}/api/v1/token`, headers: {}, body: '{"client_id":"c1","client_secret":"***","grant_type":"client_credentials"}' }, BASE);
    const sent = curlArgs(token.command, { BAAS_CLIENT_SECRET: `s3cr'et$x` });
    expect(JSON.parse(sent[sent.indexOf('--data-raw') + 1])).toEqual({ client_id: 'c1', client_secret: `s3cr'et$x`, grant_type: 'client_credentials' });
    expect(token.mint).toEqual([]);
  });

  it('a user-scoped call without identity headers mints an S2S token, then the user token', async () => {
    const model = await loadModel();
    const r = replayCurl(model, { method: 'GET', url: `${BASE}/api/v1/cards`, headers: { authorization: 'Bearer ***', 'x-chain-id': '137' } }, BASE);
    expect(r.mint).toHaveLength(2);
    expect(r.mint[0]).toMatch(/^export BAAS_S2S_TOKEN=/);
    expect(r.mint[1]).toMatch(/^export BAAS_TOKEN=/);
    expect(r.mint[1]).toContain(model.operations.get('authorizeUser')!.path);
    expect(r.mint[1]).toContain("'X-Chain-Id: 137'");
    expect(r.env).toContain('BAAS_USER_WALLET');
    // The mint command runs: curl gets the token request with the secret from the environment.
    const mintArgs = curlArgs(r.mint[0].replace(/^export BAAS_S2S_TOKEN="\$\((.*) \| node .*$/, '$1'), { BAAS_CLIENT_ID: 'id1', BAAS_CLIENT_SECRET: 'sec1' });
    expect(JSON.parse(mintArgs[mintArgs.indexOf('--data-raw') + 1])).toEqual({ client_id: 'id1', client_secret: 'sec1', grant_type: 'client_credentials' });
  });

  it('the mint command and the replay really work: with real curl against the reference, the replay gets the answer', async () => {
    const curl = spawnSync('curl', ['--version']);
    if (curl.error) return void console.warn('curl not installed: replay end-to-end test not run');
    const model = await loadModel();
    const ref = await startReference({ host: '127.0.0.1', port: 0, pciPort: 0 });
    try {
      const base = ref.profile.base_url;
      const client = ref.profile.clients[0];
      // The request as the recorder keeps it: token masked.
      const r = replayCurl(model, { method: 'GET', url: `${base}${model.operations.get('getConfig')!.path}`, headers: { accept: 'application/json', authorization: 'Bearer ***' } }, base);
      const script = `set -e\n${r.mint.join('\n')}\n${r.command.replace('curl -sS -i', 'curl -sS -o /dev/null -w "%{http_code}"')}`;
      const env = { PATH: process.env.PATH ?? '', BAAS_CLIENT_ID: client.client_id, BAAS_CLIENT_SECRET: client.client_secret };
      // Async: the reference answers from this process, so a blocking spawn would deadlock.
      const run = (e: Record<string, string>) => promisify(execFile)('bash', ['--norc', '--noprofile', '-c', script], { env: e, encoding: 'utf8', timeout: 30_000 }).catch((err) => ({ stdout: String(err.stdout ?? ''), stderr: String(err.stderr ?? err) }));
      const ok = await run(env);
      expect(ok.stdout.trim(), ok.stderr).toBe('200');
      // A wrong secret: the mint gets no token, and the replay is refused (the command is not a no-op).
      const bad = await run({ ...env, BAAS_CLIENT_SECRET: 'wrong-secret' });
      expect(bad.stdout.trim()).not.toBe('200');
    } finally {
      await ref.close();
    }
  });

  it('flags values still masked that no environment variable stands for', async () => {
    const model = await loadModel();
    const r = replayCurl(model, { method: 'POST', url: `${BASE}/api/v1/bank/accounts/complete`, headers: {}, body: '{"signed_challenge":"***"}' }, BASE);
    expect(r.stillMasked).toBe(true);
  });
});

describe('HTML pages', () => {
  it('the CSP hash is the hash of the one inline stylesheet, and no script or style attribute is written', async () => {
    const c = new RunCollector();
    const html = buildHtml(c, undefined, await loadModel());
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]);
    expect(styles).toHaveLength(1);
    const hash = createHash('sha256').update(styles[0], 'utf8').digest('base64');
    const csp = html.match(/http-equiv="Content-Security-Policy" content="([^"]*)"/)?.[1]?.replace(/&#x27;/g, "'").replace(/&#x3D;/g, '=');
    expect(csp).toBe(`default-src 'none'; style-src 'sha256-${hash}'; img-src 'none'; base-uri 'none'; form-action 'none'`);
    expect(html).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
  });

  it('the selftest page renders an empty result without error', () => {
    const empty = { baseline: { id: 'baseline', kind: 'baseline', breaks: [], description: 'd', failing: [], caughtBy: [], ok: true, passed: 0, skipped: 0, skippedChecks: [], newlySkipped: [], durationMs: 0 } };
    const html = buildSelftestHtml({ seed: 1, timeoutBudgetMs: 1, concurrency: 1, checks: 0, variants: [], score: { caught: 0, faulty: 0, percent: 100 }, uncaught: [], caughtOnlyByOtherRules: [], falsePositives: [], exitCode: 0, durationMs: 0, ...empty } as any);
    expect(html).toContain('data-count="caught">0<');
    // A faulty variant whose only failing check is not credited says why, in its kill-matrix row.
    const v = { ...empty.baseline, id: 'v1', kind: 'faulty', breaks: ['ERR-X'], ok: false, failing: [{ checkId: 'c1', rules: ['ERR-X'], message: 'm <b>', named: true }], caughtBy: [], notCredited: [{ checkId: 'c1', reason: 'fails-on-baseline' }] };
    const withVariant = buildSelftestHtml({ seed: 1, timeoutBudgetMs: 1, concurrency: 1, checks: 1, variants: [v], score: { caught: 0, faulty: 1, percent: 0 }, uncaught: ['v1'], caughtOnlyByOtherRules: ['v1'], falsePositives: [], exitCode: 1, durationMs: 0, ...empty } as any);
    expect(withVariant).toMatch(/<tr class="item is-fail" data-variant="v1">[\s\S]*?not credited: fails on the baseline too/);
  });

  it('renders blocked checks under their root cause, warnings apart, and every diff list', async () => {
    const base = { title: 't', area: 'transfers', section: '4.rule3', durationMs: 1, requests: 1, seed: 9 };
    const blocked: CheckResult = {
      ...base,
      checkId: 'schema.execute-card-transfer',
      rules: ['ENDPOINT-RESPONSE-SCHEMA'],
      verdict: 'blocked',
      blocked: { operation: 'tokenizeCard', rules: ['FLOW-PUSH-TO-CARD'], message: 'POST {pci_url}/b2b/cards/oct: HTTP 404 <i>x</i>' },
    };
    const warned: CheckResult = { ...base, checkId: 'limits.rate', area: 'limits', section: '8', rules: ['LIMIT-TOKEN-RATE-LIMIT'], verdict: 'pass', warnings: ['429 without Retry-After <script>'] };
    const change = (id: string, from: string, to: string) => ({ id, from, to });
    const events: RunEvent[] = [
      { type: 'run-started', runId: 'r', seed: 3, target: BASE, targetName: 't', checks: 2, safe: false, startedAt: 'a', toolVersion: '0' },
      { type: 'check-finished', result: blocked },
      { type: 'check-finished', result: warned },
      {
        type: 'run-finished',
        summary: { rootCauses: 1, passed: 1, failed: 0, blocked: 1, skipped: 0, warned: 1, total: 2, requests: 2, durationMs: 1, rules: { total: 0, passed: 0, failed: 0, blocked: 0, skipped: 0, uncovered: 0, untestable: 0 } },
        rules: [],
        results: [blocked, warned],
        finishedAt: 'b',
        rootCauses: [{ kind: 'blocking', id: 'tokenizeCard', operation: 'tokenizeCard', rules: ['FLOW-PUSH-TO-CARD'], message: 'HTTP 404', checks: [], blocked: [blocked.checkId] }],
        diff: {
          baseline: { seed: 1 },
          checks: { newlyFailing: [change('a.new', 'pass', 'fail')], fixed: [change('a.fixed', 'fail', 'pass')], newlySkipped: [change('a.skipped', 'pass', 'skip')], other: [] },
          rules: { newlyFailing: [], fixed: [], newlySkipped: [change('R-1', 'pass', 'skip')], other: [] },
          onlyInBaseline: ['a.gone'],
          onlyInCurrent: [],
        },
      },
    ];
    const c = new RunCollector();
    for (const e of events) c.onEvent(e);
    const html = buildHtml(c, undefined, await loadModel());
    expect(html).toContain('<article class="failure blocked item is-fail" id="check-schema.execute-card-transfer">');
    expect(html).toContain('Blocked by <code>tokenizeCard</code>: POST {pci_url}/b2b/cards/oct: HTTP 404 &lt;i&gt;x&lt;/i&gt;');
    // The root cause links to the blocked card; the rule of the failed step is quoted from the model.
    expect(html).toMatch(/<tr data-cause="tokenizeCard">[\s\S]*?href="#check-schema.execute-card-transfer"/);
    expect(html).toContain('FLOW-PUSH-TO-CARD');
    expect(html).toContain('<tr data-warning="limits.rate">');
    expect(html).toContain('429 without Retry-After &lt;script&gt;');
    for (const [change, id] of [['newly-failing', 'a.new'], ['fixed', 'a.fixed'], ['newly-skipped', 'a.skipped'], ['newly-skipped', 'R-1']]) {
      expect(html).toMatch(new RegExp(`data-change="${change}"><td>[^<]+</td><td><code>${id.replace('.', '\\.')}</code>`));
    }
    expect(html).toContain('Only in the baseline: <code>a.gone</code>');
    // The blocked check shows under the failed filter: its row carries is-fail.
    expect(html).toContain('<tr class="item is-fail" data-check="schema.execute-card-transfer">');
  });

  it('a block naming no rule (a profile setting the target refused) says no rule was broken, in the card and the root cause', async () => {
    const blocked: CheckResult = {
      title: 't', area: 'identity', section: '5', durationMs: 1, requests: 1, seed: 9, checkId: 'identity.company.isolation', rules: ['IDENTITY-ISOLATION'],
      verdict: 'blocked',
      blocked: { operation: 'tokenizeCard', rules: [], message: 'refused for its credentials; set profile.operation_auth.tokenizeCard' },
    };
    const c = new RunCollector();
    for (const e of [
      { type: 'run-started', runId: 'r', seed: 3, target: BASE, targetName: 't', checks: 1, safe: false, startedAt: 'a', toolVersion: '0' },
      { type: 'check-finished', result: blocked },
      {
        type: 'run-finished',
        summary: { rootCauses: 1, passed: 0, failed: 0, blocked: 1, skipped: 0, warned: 0, total: 1, requests: 1, durationMs: 1, rules: { total: 0, passed: 0, failed: 0, blocked: 0, skipped: 0, uncovered: 0, untestable: 0 } },
        rules: [],
        results: [blocked],
        finishedAt: 'b',
        rootCauses: [{ kind: 'blocking', id: 'tokenizeCard', operation: 'tokenizeCard', rules: [], message: 'refused', checks: [], blocked: [blocked.checkId] }],
      },
    ] as RunEvent[]) c.onEvent(e);
    const html = buildHtml(c, undefined, await loadModel());
    expect(html).not.toContain('No rule of the model names this operation');
    expect(html).toContain("No rule broken: the cause is outside the target's rules");
    expect(html).toMatch(/<tr data-cause="tokenizeCard">[\s\S]*?no rule broken/);
  });

  it('sections group by their number: 9.6 and 4.rule1 are in 9 and 4', () => {
    expect(['9.6', '4.rule1', '7', '7.other1'].map(majorSection)).toEqual(['9', '4', '7', '7']);
  });
});
