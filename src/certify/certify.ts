// `baas-conform certify`: the full suite (no --safe, no shard, no --check, no waivers) against one
// target and, only if every check passed and every testable rule was exercised, a signed package:
// report.html, results.json, junit.xml, the profile and the run's exchanges (transcript.har) with
// every secret replaced by a salted commitment, certificate.json (tool version, spec/ digest, seed,
// run id, summary, scope and expiry, the checks re-judging cannot reproduce offline) and
// manifest.json + manifest.jws over all of them. The salts are written beside the package, never in it.

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runConformance, type ConformanceOptions } from '../api/conformance.ts';
import { packagePath } from '../package/index.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { ConsoleReporter, HarReporter, HtmlReporter, JsonReporter, JunitReporter, type ConsoleReporterOptions } from '../report/index.ts';
import type { Har } from '../report/har.ts';
import { loadModel } from '../model/index.ts';
import { loadChecks } from '../../suites/index.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import type { CheckResult, Reporter, RuleVerdict } from '../events/index.ts';
import { exercisedRules } from '../runner/index.ts';
import { digestTree, treeDigest } from './digest.ts';
import { CertificationRefusedError } from './errors.ts';
import { generateSigningKey, loadSigningKey } from './keys.ts';
import { CERTIFICATE_KIND, PACKAGE_FILES, PACKAGE_FORMAT_VERSION, type Manifest } from './layout.ts';
import { prepareOutDir, writePackage } from './package.ts';
import { committedProfileJson } from './redact.ts';
import { Committer } from './commit.ts';
import { RawCapture } from './raw-capture.ts';
import { commitHar, commitJson, commitLiterals, commitText } from './transcript.ts';
import { secretsOf } from '../profile/index.ts';
import { notRejudgeable } from './rejudgeable.ts';
import { ruleSet, scopeOf, specVersion, validDays as checkValidDays } from './scope.ts';

/** Run options a certificate allows: no selection (--check, --shard, --safe), no waivers, no fail-fast. */
export type CertifyRunOptions = Omit<ConformanceOptions, 'checks' | 'shard' | 'safe' | 'failFast' | 'expectedFailures' | 'baseline' | 'reporters'>;

export interface CertifyOptions extends CertifyRunOptions {
  outDir: string;
  /** Private Ed25519 JWK file; a key is generated for this package when absent (its public half is in the package). */
  keyFile?: string;
  console?: ConsoleReporterOptions;
  replayBase?: string;
  /** Days the certificate holds (scope.validUntil); default 365. */
  validDays?: number;
  /**
   * Where the salts of the package's commitments go (default: OUT.salts.json beside the package). The
   * certifier keeps this file: it is what lets them disclose one value (verify --reveal) later.
   */
  saltsFile?: string;
}

export interface CertifyResult {
  outDir: string;
  manifest: Manifest;
  kid: string;
  keyGenerated: boolean;
  seed: number;
  specDigest: string;
  /** Where the salts were written (outside the package). */
  saltsFile: string;
  validUntil: string;
}

/**
 * Testable rules the run did not see pass, judged by a check (src/runner/coverage.ts exercisedRules,
 * the same count as --min-coverage): a certificate covers every rule or none.
 */
export function unexercisedRules(rules: RuleVerdict[], results: CheckResult[]): RuleVerdict[] {
  const judged = exercisedRules(rules, results);
  return rules.filter((r) => r.verdict !== 'untestable' && !(r.verdict === 'pass' && judged.has(r.id)));
}

export async function certify(opts: CertifyOptions): Promise<CertifyResult> {
  const { outDir, keyFile, console: consoleOpts, replayBase, onTarget, validDays: days, saltsFile: saltsOpt, ...run } = opts;
  // Fail on a bad key, a bad --valid-days or a used output directory before a long run, not after it.
  const validDays = checkValidDays(days);
  const key = keyFile ? await loadSigningKey(keyFile) : await generateSigningKey();
  await prepareOutDir(outDir);
  const saltsFile = saltsOpt ?? `${outDir.replace(/[\\/]+$/, '')}.salts.json`;
  const staging = await mkdtemp(path.join(tmpdir(), 'baas-conform-certify-'));
  const raw = new RawCapture().start();
  try {
    const files = { json: path.join(staging, PACKAGE_FILES.results), junit: path.join(staging, PACKAGE_FILES.junit), html: path.join(staging, PACKAGE_FILES.html), har: path.join(staging, 'run.har') };
    const reporters: Reporter[] = [new JsonReporter(files.json), new JunitReporter(files.junit), new HtmlReporter(files.html, replayBase), new HarReporter(files.har)];
    if (consoleOpts) reporters.unshift(new ConsoleReporter({ replayBase, ...consoleOpts }));
    let profile: ResolvedProfile | undefined;
    // The type already forbids waivers; a caller from JavaScript (or a cast) could still pass a list or
    // a baseline, and a waived failure (a muted one above all) must never reach a certificate.
    const { expectedFailures: _waivers, baseline: _baseline, ...unwaived } = run as CertifyRunOptions & Pick<ConformanceOptions, 'expectedFailures' | 'baseline'>;
    const outcome = await runConformance({
      ...unwaived,
      reporters,
      onTarget: (t) => {
        profile = t.profile;
        onTarget?.(t);
      },
    });
    const reasons = [...outcome.exitReasons];
    const missing = unexercisedRules(outcome.rules, outcome.results);
    if (missing.length) {
      const shown = missing.slice(0, 5).map((r) => `${r.id} (${r.verdict}${r.reason ? `: ${r.reason}` : ''})`).join(', ');
      reasons.push(`coverage required: ${missing.length} testable rule${missing.length === 1 ? ' was' : 's were'} not exercised: ${shown}${missing.length > 5 ? ', …' : ''}`);
    }
    if (reasons.length) throw new CertificationRefusedError(reasons);
    raw.stop();

    // One committer for every file: a value commits alike wherever it appears (transcript, profile, reports).
    const committer = new Committer();
    const transcript = commitHar(JSON.parse(await readFile(files.har, 'utf8')) as Har, committer, raw);
    const profileJson = committedProfileJson(profile!, committer);
    // The profile's literal secrets, wherever a pass by name or shape left one (JSON-escaped as written).
    const literals = secretsOf(profile!).flatMap((v) => [v, JSON.stringify(v).slice(1, -1)]);
    const literal = (text: string) => commitLiterals(text, literals, committer);
    const results = commitJson(JSON.parse(await readFile(files.json, 'utf8')), committer) as Record<string, unknown> & { target: string; runId: string; started: string; finished: string; summary: unknown; checks: { checkId: string; rules: string[] }[] };
    const specFiles = await digestTree(packagePath('spec'));
    const specDigest = treeDigest(specFiles);
    const model = opts.model ?? (await loadModel());
    const checksById = new Map((opts.checkList ?? (await loadChecks())).map((c) => [c.id, c]));
    const scope = scopeOf({ baseUrl: profile!.base_url, specDigest, specVersion: await specVersion(), rules: ruleSet(model, specFiles), issued: new Date(), validDays });
    const certificate = {
      kind: CERTIFICATE_KIND,
      version: PACKAGE_FORMAT_VERSION,
      tool: { name: TOOL_NAME, version: TOOL_VERSION },
      node: process.version,
      target: results.target,
      runId: results.runId,
      seed: outcome.seed,
      started: results.started,
      finished: results.finished,
      spec: { algorithm: 'sha256', digest: specDigest, files: specFiles },
      summary: results.summary,
      key: { kid: key.kid, generated: !keyFile },
      scope,
      transcript: {
        file: PACKAGE_FILES.transcript,
        entries: transcript.log.entries.length,
        commitments: committer.size,
        note: 'tokens, secrets, card numbers, CVV, IBANs and e-mail addresses are salted HMAC-SHA256 commitments (cmt.KIND.LETTERS); the salts are kept by the certifier (verify --reveal)',
      },
      // What rests on the signature alone: checks re-judging cannot reproduce offline (spec/rules rejudge: no).
      rejudge: { notOffline: notRejudgeable(model, results.checks.map((c) => ({ ...c, needs: checksById.get(c.checkId)?.needs ?? [] }))) },
    };
    const manifest = await writePackage(
      outDir,
      {
        [PACKAGE_FILES.html]: literal(commitText(await readFile(files.html, 'utf8'), committer)),
        [PACKAGE_FILES.results]: literal(`${JSON.stringify(results, null, 2)}\n`),
        [PACKAGE_FILES.junit]: literal(commitText(await readFile(files.junit, 'utf8'), committer)),
        [PACKAGE_FILES.profile]: profileJson,
        [PACKAGE_FILES.transcript]: literal(`${JSON.stringify(transcript, null, 2)}\n`),
        [PACKAGE_FILES.certificate]: `${JSON.stringify(certificate, null, 2)}\n`,
      },
      key,
    );
    // The salts never enter the package; owner-only, as a private key would be.
    await writeFile(saltsFile, `${JSON.stringify(committer.file(results.runId), null, 2)}\n`, { mode: 0o600 });
    return { outDir, manifest, kid: key.kid, keyGenerated: !keyFile, seed: outcome.seed, specDigest, saltsFile, validUntil: scope.validUntil };
  } finally {
    raw.stop();
    await rm(staging, { recursive: true, force: true });
  }
}
