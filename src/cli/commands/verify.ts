// `baas-conform verify PACKAGE [--key JWK]`: exit 0 when the signature and every file match; exit 1
// naming each file that does not (changed, missing, extra) or the key that did not sign it.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { verifyPackage } from '../../api/index.ts';
import type { CliIo, CommandImpl } from '../types.ts';

/** The flags verify's builder declares. */
interface VerifyArgs {
  package?: string;
  key?: string;
}

async function verifyHandler(args: VerifyArgs, io: CliIo): Promise<number> {
  const r = await verifyPackage(resolve(io.cwd, String(args.package)), { keyFile: args.key !== undefined ? resolve(io.cwd, String(args.key)) : undefined });
  io.stdout.write(`OK ${r.dir}: signature (kid ${r.kid}) and ${r.files} files match\n`);
  if (!r.keyGiven) io.stdout.write('Checked with the package\'s own public-key.jwk.json: integrity only. Pass --key with the publisher\'s public JWK to prove who signed.\n');
  return 0;
}

export const verifyCommand: CommandImpl<VerifyArgs> = {
  builder: (y: Argv) =>
    y
      .positional('package', { type: 'string', describe: 'Directory written by certify --out' })
      .option('key', { type: 'string', describe: "The publisher's public Ed25519 JWK (default: the package's own public-key.jwk.json)" }),
  run: verifyHandler,
};
