// `baas-conform verify PACKAGE [--key JWK]`: exit 0 when the signature and every file match and the
// certificate is within its dates; exit 1 naming each file that does not (changed, missing, extra),
// the key that did not sign it, or the date it expired on. --reveal FIELD=VALUE --salts FILE
// confirms a disclosed value is one the run saw; --rejudge re-runs the checks offline against the
// package's transcript and names every verdict it could not reproduce.
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { readSalts, rejudgePackage, reveal, verifyPackage, type RejudgeReport } from '../../api/certify.ts';
import { ConfigError } from '../../errors/index.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { sharedFlags } from '../flags.ts';

/** The flags verify's builder declares. */
interface VerifyArgs {
  package?: string;
  key?: string;
  rejudge?: boolean;
  reveal?: string[];
  salts?: string;
  writeReveal?: string;
}

/** Target text may hold terminal control characters. */
const clean = (s: string) => s.replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, ' ');

function printRejudge(r: RejudgeReport, io: CliIo): void {
  for (const v of r.differs) io.stdout.write(`NOT REPRODUCED ${v.checkId}: ${v.recorded} in the package, ${v.now} now: ${clean(v.reason ?? '')}\n`);
  for (const n of r.notRejudgeable) io.stdout.write(`NOT RE-JUDGEABLE ${n.checkId}: ${clean(n.reason)}\n`);
  for (const id of r.unknown) io.stdout.write(`UNKNOWN ${id}: this tool version has no such check\n`);
  io.stdout.write(`Re-judged offline with seed ${r.seed}: ${r.reproduced.length} verdicts reproduced, ${r.differs.length} not reproduced, ${r.notRejudgeable.length} not re-judgeable offline (they rest on the signature alone)${r.unknown.length ? `, ${r.unknown.length} unknown` : ''}\n`);
}

async function verifyHandler(args: VerifyArgs, io: CliIo): Promise<number> {
  const dir = resolve(io.cwd, String(args.package));
  const reveals = ([] as string[]).concat(args.reveal ?? []).map(String);
  if (reveals.length && args.salts === undefined) throw new ConfigError('--reveal needs --salts FILE: the salts file certify wrote beside the package, or a reveal file the certifier cut from it (--write-reveal)');
  if (args.writeReveal !== undefined && reveals.length !== 1) throw new ConfigError('--write-reveal writes the salt of one disclosed value: give exactly one --reveal FIELD=VALUE');
  const r = await verifyPackage(dir, { keyFile: args.key !== undefined ? resolve(io.cwd, String(args.key)) : undefined });
  io.stdout.write(`OK ${r.dir}: signature (kid ${r.kid}) and ${r.files} files match${r.validUntil ? `; valid until ${r.validUntil}` : ''}\n`);
  if (!r.keyGiven) io.stdout.write('Checked with the package\'s own public-key.jwk.json: integrity only. Pass --key with the publisher\'s public JWK to prove who signed.\n');
  if (reveals.length) {
    const salts = await readSalts(resolve(io.cwd, String(args.salts)));
    for (const text of reveals) {
      const out = args.writeReveal !== undefined ? resolve(io.cwd, String(args.writeReveal)) : undefined;
      const got = await reveal(dir, text, salts, out);
      const where = Object.entries(got.places).map(([f, n]) => `${f} (${n})`).join(', ');
      io.stdout.write(`REVEALED ${got.kind}: the value given is the one committed as ${got.commitment}, in ${where}\n`);
      if (out) io.stdout.write(`Reveal file with that value's salt only: ${out} (hand it out with the value; the other commitments stay closed)\n`);
    }
  }
  if (!args.rejudge) return 0;
  // Offline and bounded by the transcript: Ctrl-C ends the process, and with it the loopback playback.
  const report = await rejudgePackage(dir);
  printRejudge(report, io);
  if (!report.reproduced.length && !report.differs.length) {
    io.stderr.write('Nothing was re-judged: every check of the package is marked not re-judgeable offline (inconclusive)\n');
    return 4;
  }
  return report.differs.length ? 1 : 0;
}

export const verifyCommand: CommandImpl<VerifyArgs> = {
  builder: (y: Argv) =>
    sharedFlags(y, 'salts')
      .positional('package', { type: 'string', describe: 'Directory written by certify --out' })
      .option('key', { type: 'string', describe: "The publisher's public Ed25519 JWK (default: the package's own public-key.jwk.json)" })
      .option('rejudge', { type: 'boolean', describe: "Re-run the package's checks with its seed against its transcript (offline playback); exit 1 when a verdict is not reproduced" })
      .option('reveal', { type: 'string', array: true, describe: 'FIELD=VALUE (FIELD: email, token, secret, pan, cvv, iban, or a field name): confirm the run saw this value; needs --salts; repeatable' })
      .option('write-reveal', { type: 'string', describe: "With one --reveal and the certifier's salts: write a reveal file holding that value's salt only, to hand out" }),
  run: verifyHandler,
};
