// diagnoseTarget: `baas-conform doctor`'s one call. Chooses the target (a profile or a base URL; never
// the embedded reference: doctor is about your target), probes it once, read-only, and says per missing
// profile field or control operation what it would unlock.

import { formatDoctor, runDoctor, type DoctorReport } from '../doctor/index.ts';
import { ConfigError } from '../errors/index.ts';
import { loadModel } from '../model/index.ts';
import type { TargetProfile } from '../profile/index.ts';
import { loadChecks } from '../../suites/index.ts';
import { resolveTarget } from './target.ts';

export { formatDoctor, type DoctorReport } from '../doctor/index.ts';

export interface DiagnoseOptions {
  profile?: string | TargetProfile;
  target?: string;
  /** A control adapter module (profile.control_adapter's file) to load and check. */
  controlAdapter?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** Probes the target and returns the report (exitCode 0 answers and accepts clients[0], 2 token refused, 3 unreachable). */
export async function diagnoseTarget(options: DiagnoseOptions): Promise<DoctorReport> {
  const { env = process.env, cwd = process.cwd() } = options;
  if (!options.profile && !options.target) throw new ConfigError('doctor needs the target: give --profile FILE (or --target URL with BAAS_CLIENT_ID/BAAS_CLIENT_SECRET)');
  const target = await resolveTarget({ profile: options.profile, target: options.target, env, cwd });
  try {
    const [model, checks] = await Promise.all([loadModel(), loadChecks()]);
    return await runDoctor({ profile: target.profile, model, checks, env, cwd, controlAdapterFile: options.controlAdapter });
  } finally {
    await target.close();
  }
}

/** The report as the CLI prints it. */
export const renderDoctor = (report: DoctorReport, json = false): string => (json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
