// `baas-conform certify`: the full suite (no --safe, no shard, no --check, no waivers) against one
// target and, only if every check passed and every testable rule was exercised, a signed package:
// report.html, results.json, junit.xml, the profile without secrets, certificate.json (tool
// version, spec/ digest, seed, run id, summary) and manifest.json + manifest.jws over all of them.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runConformance, type ConformanceOptions } from '../api/conformance.ts';
import { packagePath } from '../package/index.ts';
import type { ResolvedProfile } from '../profile/types.ts';
import { ConsoleReporter, HtmlReporter, JsonReporter, JunitReporter, type ConsoleReporterOptions } from '../report/index.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import type { CheckResult, Reporter, RuleVerdict } from '../events/index.ts';
import { exercisedRules } from '../runner/index.ts';
import { digestTree, treeDigest } from './digest.ts';
import { CertificationRefusedError } from './errors.ts';
import { generateSigningKey, loadSigningKey } from './keys.ts';
import { CERTIFICATE_KIND, PACKAGE_FILES, PACKAGE_FORMAT_VERSION, type Manifest } from './layout.ts';
import { prepareOutDir, writePackage } from './package.ts';
import { redactedProfileJson } from './redact.ts';

/** Run options a certificate allows: no selection (--check, --shard, --safe), no waivers, no fail-fast. */
export type CertifyRunOptions = Omit<ConformanceOptions, 'checks' | 'shard' | 'safe' | 'failFast' | 'expectedFailures' | 'baseline' | 'reporters'>;

export interface CertifyOptions extends CertifyRunOptions {
  outDir: string;
  /** Private Ed25519 JWK file; a key is generated for this package when absent (its public half is in the package). */
  keyFile?: string;
  console?: ConsoleReporterOptions;
  replayBase?: string;
}

export interface CertifyResult {
  outDir: string;
  manifest: Manifest;
  kid: string;
  keyGenerated: boolean;
  seed: number;
  specDigest: string;
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
  const { outDir, keyFile, console: consoleOpts, replayBase, onTarget, ...run } = opts;
  // Fail on a bad key or a used output directory before a long run, not after it.
  const key = keyFile ? await loadSigningKey(keyFile) : await generateSigningKey();
  await prepareOutDir(outDir);
  const staging = await mkdtemp(path.join(tmpdir(), 'baas-conform-certify-'));
  try {
    const files = { json: path.join(staging, PACKAGE_FILES.results), junit: path.join(staging, PACKAGE_FILES.junit), html: path.join(staging, PACKAGE_FILES.html) };
    const reporters: Reporter[] = [new JsonReporter(files.json), new JunitReporter(files.junit), new HtmlReporter(files.html, replayBase)];
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

    const results = JSON.parse(await readFile(files.json, 'utf8'));
    const specFiles = await digestTree(packagePath('spec'));
    const specDigest = treeDigest(specFiles);
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
    };
    const manifest = await writePackage(
      outDir,
      {
        [PACKAGE_FILES.html]: await readFile(files.html),
        [PACKAGE_FILES.results]: await readFile(files.json),
        [PACKAGE_FILES.junit]: await readFile(files.junit),
        [PACKAGE_FILES.profile]: redactedProfileJson(profile!),
        [PACKAGE_FILES.certificate]: `${JSON.stringify(certificate, null, 2)}\n`,
      },
      key,
    );
    return { outDir, manifest, kid: key.kid, keyGenerated: !keyFile, seed: outcome.seed, specDigest };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
