// runAuditMode: one client audit, from options to the verdict and its reports. `baas-conform audit`
// is this function plus flag parsing, the stop signals and the exit code; library users call it with
// their own `until` (or `startAudit` for a live handle).

import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AUDIT_FILES, formatVerdict, readAuditPlan, startAudit, writeAuditHar, writeAuditReports, type Audit, type AuditProfile, type AuditVerdict } from '../audit/index.ts';
import { qualifyAudit, type AuditFlagValues } from '../audit/options.ts';
import { ConfigError } from '../errors/index.ts';
import { REPORT_DIRS, resolveRunOptions } from '../options/index.ts';

export { AUDIT_BOUNDS, AUDIT_DEFAULTS, PCI_AUTH_MODES, qualifyAudit, type AuditFlagValues, type QualifiedAudit } from '../audit/options.ts';
export { DEFAULT_MIN_EXERCISED, type AuditVerdict, type AuditProfile } from '../audit/index.ts';

export interface AuditModeOptions {
  /** The audit's knobs (bounds: AUDIT_BOUNDS; defaults: AUDIT_DEFAULTS). */
  flags?: AuditFlagValues;
  /** A fault plan YAML (spec/schemas/audit-plan.schema.json); default the built-in plan. */
  faults?: string;
  /** A config file whose report_dir applies; `reportDir` wins. */
  config?: string;
  /** audit.json, junit.xml and audit.html go here (default ./baas-conform-audit). */
  reportDir?: string;
  /** Also write the client profile here (mode 0600: it carries credentials). */
  profileOut?: string;
  /** Also write a HAR of the recorded exchanges. */
  har?: string;
  cwd?: string;
  /** Given the client profile once the audit listens (the CLI prints it as the first stdout line). */
  onProfile?: (profile: AuditProfile) => void | Promise<void>;
  /** The audit ends when this settles, or after flags.duration seconds, whichever is first. */
  until?: Promise<void>;
}

export interface AuditModeResult {
  verdict: AuditVerdict;
  /** The files written: the HTML report, and the HAR when asked for. */
  files: { html: string; json: string; junit: string; har?: string };
}

/** The verdict as the CLI prints it. */
export const renderAudit = (verdict: AuditVerdict): string => formatVerdict(verdict);

/** Starts the audit, waits for `until` or the duration, judges what the client did and writes the reports. */
export async function runAuditMode(options: AuditModeOptions): Promise<AuditModeResult> {
  const cwd = options.cwd ?? process.cwd();
  const q = qualifyAudit(options.flags ?? {});
  // Nothing would end an audit with neither: refused rather than left to hang.
  if (!options.until && q.durationS === undefined) throw new ConfigError('audit: give `until` (a promise that ends the audit) or a duration in seconds');
  const plan = options.faults ? await readAuditPlan(resolve(cwd, options.faults)) : undefined;
  const o = await resolveRunOptions({ config: options.config, reportDir: options.reportDir }, cwd);
  const reportDir = o.reportDirGiven ? o.reportDir : resolve(cwd, REPORT_DIRS.audit);
  let audit: Audit;
  try {
    audit = await startAudit({ port: q.port, pciPort: q.pciPort, host: q.host, plan, webhookUrl: q.webhookUrl, strict: q.strict, ...(q.minExercised !== undefined ? { minExercised: q.minExercised } : {}), ...(q.pciAuth ? { pciAuth: q.pciAuth } : {}) });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new ConfigError(`cannot listen on ${q.host}: ${code}`);
    throw e;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await options.onProfile?.(audit.profile);
    if (options.profileOut) await writeFile(resolve(cwd, options.profileOut), `${JSON.stringify(audit.profile)}\n`, { mode: 0o600 });
    const ends = [...(options.until ? [options.until] : []), ...(q.durationS !== undefined ? [new Promise<void>((r) => (timer = setTimeout(r, q.durationS! * 1000)))] : [])];
    await Promise.race(ends);
    const verdict = await audit.verdict();
    const files = { json: join(reportDir, AUDIT_FILES.json), junit: join(reportDir, AUDIT_FILES.junit), html: join(reportDir, AUDIT_FILES.html) };
    await writeAuditReports(verdict, audit.plan, files);
    const har = options.har ? resolve(cwd, options.har) : undefined;
    if (har) await writeAuditHar(verdict, audit.profile, har);
    return { verdict, files: { ...files, ...(har ? { har } : {}) } };
  } finally {
    clearTimeout(timer);
    await audit.close();
  }
}
