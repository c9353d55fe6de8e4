// `baas-conform doctor --profile p.json`: probes the target once, read-only (src/doctor), and prints
// per missing profile field or control operation what it would unlock. Exit 0 when the target answers
// and accepts clients[0]; 2 when the token is refused (or the profile/adapter is invalid); 3 unreachable.
import type { Argv } from 'yargs';
import { formatDoctor, runDoctor } from '../../doctor/index.ts';
import { ConfigError } from '../../errors/index.ts';
import { loadModel } from '../../model/index.ts';
import { resolveTarget } from '../../api/index.ts';
import { loadChecks } from '../../../suites/index.ts';
import { sharedFlags } from '../flags.ts';
import type { CliIo, CommandImpl } from '../types.ts';

interface DoctorArgs {
  profile?: string;
  target?: string;
  controlAdapter?: string;
  json?: boolean;
}

async function doctorHandler(args: DoctorArgs, io: CliIo): Promise<number> {
  if (!args.profile && !args.target) throw new ConfigError('doctor needs the target: give --profile FILE (or --target URL with BAAS_CLIENT_ID/BAAS_CLIENT_SECRET)');
  const target = await resolveTarget({ profile: args.profile, target: args.target, env: io.env, cwd: io.cwd });
  try {
    const [model, checks] = await Promise.all([loadModel(), loadChecks()]);
    const report = await runDoctor({ profile: target.profile, model, checks, env: io.env, cwd: io.cwd, controlAdapterFile: args.controlAdapter });
    io.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
    return report.exitCode;
  } finally {
    await target.close();
  }
}

export const doctorCommand: CommandImpl<DoctorArgs> = {
  builder: (y: Argv) =>
    sharedFlags(y, 'profile', 'target', 'control-adapter', 'json'),
  run: doctorHandler,
};
