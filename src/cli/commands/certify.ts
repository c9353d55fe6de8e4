// `baas-conform certify --out DIR`: the full suite against a target (no --safe, no shards, no
// --check, every testable rule exercised) and, only if it passes, a signed package (src/certify).
import { resolve } from 'node:path';
import { certify } from '../../api/certify.ts';
import type { CliIo } from '../types.ts';
import { resolveRunOptions, type RunFlagValues } from '../../options/index.ts';
import { withCancellation } from '../cancel.ts';
import { flagCommand } from '../flags.ts';

/** The run flags plus the ones certify's builder adds. */
interface CertifyArgs extends RunFlagValues {
  out?: string;
  key?: string;
  strict?: boolean;
  validDays?: number;
  salts?: string;
}

async function certifyHandler(args: CertifyArgs, io: CliIo): Promise<number> {
  const o = await resolveRunOptions(args, io.cwd);
  const result = await withCancellation(io, 'running checks are aborted, no package is written', (signal) =>
    certify({
      outDir: resolve(io.cwd, String(args.out)),
      keyFile: args.key !== undefined ? resolve(io.cwd, String(args.key)) : undefined,
      profile: o.profiles[0],
      target: o.target,
      env: io.env,
      cwd: io.cwd,
      seed: o.seed,
      concurrency: o.concurrency,
      timeoutBudgetMs: o.timeoutBudgetMs,
      checkTimeoutMs: o.checkTimeoutMs,
      strict: !!args.strict,
      ...(args.validDays !== undefined ? { validDays: args.validDays } : {}),
      ...(args.salts !== undefined ? { saltsFile: resolve(io.cwd, String(args.salts)) } : {}),
      signal,
      console: { stream: io.stdout },
      onTarget: ({ profile, embedded }) => {
        if (embedded) io.stdout.write(`no --profile or --target: certifying the embedded reference at ${profile.base_url}\n`);
      },
    }),
  );
  io.stdout.write(`Certification package written to ${result.outDir}: ${Object.keys(result.manifest.files).length} files + manifest.json + manifest.jws (Ed25519, kid ${result.kid})\n`);
  if (result.keyGenerated) io.stdout.write('The signing key was generated for this package; its public JWK is public-key.jwk.json. Publish it apart (or sign with --key) so that verify --key proves who signed.\n');
  io.stdout.write(`Valid until ${result.validUntil}. Salts of its commitments (keep them, never publish them; verify --reveal uses them): ${result.saltsFile}\n`);
  io.stdout.write(`Verify with: baas-conform verify ${result.outDir}${result.keyGenerated ? '' : ' --key PUBLIC_JWK'} (add --rejudge to re-judge it offline from its transcript)\n`);
  return 0;
}

// certify: the seed is recorded in the certificate; --strict refuses it on warnings.
export const certifyCommand = flagCommand<CertifyArgs>(['config', 'profile', 'target', 'seed', 'concurrency', 'timeout-budget', 'check-timeout', 'strict', 'salts'], {
  out: { type: 'string', demandOption: true, describe: 'New (or empty) directory for the package' },
  key: { type: 'string', describe: 'Private Ed25519 JWK file to sign with (default: a key generated for this package)' },
  'valid-days': { type: 'number', describe: 'Days the certificate holds (scope.validUntil); verify fails after that date (default 365)' },
}, certifyHandler);
