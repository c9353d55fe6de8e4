// `baas-conform certify --out DIR`: the full suite against a target (no --safe, no shards, no
// --check, every testable rule exercised) and, only if it passes, a signed package (src/certify).
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { certify } from '../../certify/index.ts';
import type { CliCommand, CliIo } from '../types.ts';
import { parseSeed, positiveInt } from '../options.ts';

async function certifyHandler(args: Record<string, any>, io: CliIo): Promise<number> {
  const result = await certify({
    outDir: resolve(io.cwd, String(args.out)),
    keyFile: args.key !== undefined ? resolve(io.cwd, String(args.key)) : undefined,
    profile: args.profile,
    target: args.target,
    env: io.env,
    cwd: io.cwd,
    seed: parseSeed(args.seed),
    concurrency: positiveInt('concurrency', args.concurrency),
    timeoutBudgetMs: positiveInt('timeout-budget', args.timeoutBudget),
    checkTimeoutMs: positiveInt('check-timeout', args.checkTimeout),
    strict: !!args.strict,
    console: { stream: io.stdout },
    onTarget: ({ profile, embedded }) => {
      if (embedded) io.stdout.write(`no --profile or --target: certifying the embedded reference at ${profile.base_url}\n`);
    },
  });
  io.stdout.write(`Certification package written to ${result.outDir}: ${Object.keys(result.manifest.files).length} files + manifest.json + manifest.jws (Ed25519, kid ${result.kid})\n`);
  if (result.keyGenerated) io.stdout.write('The signing key was generated for this package; its public JWK is public-key.jwk.json. Publish it apart (or sign with --key) so that verify --key proves who signed.\n');
  io.stdout.write(`Verify with: baas-conform verify ${result.outDir}${result.keyGenerated ? '' : ' --key PUBLIC_JWK'}\n`);
  return 0;
}

export const certifyCommand: CliCommand = {
  command: 'certify',
  describe: 'Run the full suite and, only if it passes with every testable rule exercised, write a signed certification package',
  builder: (y: Argv) =>
    y
      .option('out', { type: 'string', demandOption: true, describe: 'New (or empty) directory for the package' })
      .option('key', { type: 'string', describe: 'Private Ed25519 JWK file to sign with (default: a key generated for this package)' })
      .option('profile', { type: 'string', describe: 'Target profile JSON (default: the embedded reference)' })
      .option('target', { type: 'string', describe: 'Target base URL (overrides the profile base_url)' })
      .option('seed', { type: 'number', describe: 'Run seed (random when absent; recorded in the certificate)' })
      .option('concurrency', { type: 'number', describe: 'Checks run at once' })
      .option('timeout-budget', { type: 'number', describe: 'Per-request time budget in ms' })
      .option('check-timeout', { type: 'number', describe: 'Per-check time limit in ms' })
      .option('strict', { type: 'boolean', describe: 'Warnings (recommendations not met) also refuse the certificate' }),
  run: certifyHandler,
};
