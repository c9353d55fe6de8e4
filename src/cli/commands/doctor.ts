// `baas-conform doctor --profile p.json`: probes the target once, read-only (src/doctor), and prints
// per missing profile field or control operation what it would unlock. Exit 0 when the target answers
// and accepts clients[0]; 2 when the token is refused (or the profile/adapter is invalid); 3 unreachable.
import type { Argv } from 'yargs';
import { diagnoseTarget, renderDoctor } from '../../api/doctor.ts';
import { sharedFlags } from '../flags.ts';
import type { CliIo, CommandImpl } from '../types.ts';

interface DoctorArgs {
  profile?: string;
  target?: string;
  controlAdapter?: string;
  json?: boolean;
}

async function doctorHandler(args: DoctorArgs, io: CliIo): Promise<number> {
  const report = await diagnoseTarget({ profile: args.profile, target: args.target, controlAdapter: args.controlAdapter, env: io.env, cwd: io.cwd });
  io.stdout.write(renderDoctor(report, args.json));
  return report.exitCode;
}

export const doctorCommand: CommandImpl<DoctorArgs> = {
  builder: (y: Argv) =>
    sharedFlags(y, 'profile', 'target', 'control-adapter', 'json'),
  run: doctorHandler,
};
