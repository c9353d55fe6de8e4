// `baas-conform audit`: certify a partner's client. Starts the embedded reference in audit mode,
// prints the client profile as the first stdout line, records and judges the client's calls until
// SIGINT/SIGTERM or --duration, writes audit.json, junit.xml and audit.html, exits 0/1 like `run`,
// or 4 when it judged nothing (no client called, or no client rule exercised).

import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Argv } from 'yargs';
import { AUDIT_FILES, DEFAULT_MIN_EXERCISED, formatVerdict, readAuditPlan, startAudit, writeAuditHar, writeAuditReports, type Audit } from '../../audit/index.ts';
import { ConfigError } from '../../errors/index.ts';
import { LISTEN_DEFAULTS, parseNumber, parsePort, REPORT_DIRS, resolveRunOptions, type RunFlagValues } from '../../options/index.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { sharedFlags } from '../flags.ts';

function httpUrl(v: string): string {
  try {
    const u = new URL(v);
    if (u.protocol === 'http:' || u.protocol === 'https:') return v;
  } catch {
    // reported below
  }
  throw new ConfigError(`--webhook-url must be an http(s) URL of your webhook receiver, got ${JSON.stringify(v)}`);
}

/** Resolves when the audit is to end: a signal, or --duration seconds. */
function stopSignal(durationS: number | undefined): { stop: Promise<void>; dispose(): void } {
  let onSignal: () => void = () => {};
  let timer: NodeJS.Timeout | undefined;
  const stop = new Promise<void>((r) => {
    onSignal = () => r();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    if (durationS !== undefined) timer = setTimeout(r, durationS * 1000);
  });
  return { stop, dispose: () => { process.off('SIGINT', onSignal); process.off('SIGTERM', onSignal); clearTimeout(timer); } };
}

/** The shared flags audit takes plus the ones its builder adds. */
interface AuditArgs extends RunFlagValues {
  duration?: number;
  faults?: string;
  webhookUrl?: string;
  port?: number;
  pciPort?: number;
  host?: string;
  strict?: boolean;
  profileOut?: string;
  har?: string;
  pciAuth?: 's2s' | 'user' | 'headers';
  minExercised?: number;
}

async function auditHandler(args: AuditArgs, io: CliIo): Promise<number> {
  const duration = parseNumber('duration', args.duration, { min: 1, max: 86_400, what: 'a number of seconds from 1 to 86400' });
  const minExercised = parseNumber('min-exercised', args.minExercised, { min: 0, max: 100, integer: true, what: 'a whole number of client rules from 0 to 100' });
  const plan = args.faults ? await readAuditPlan(resolve(io.cwd, args.faults)) : undefined;
  const o = await resolveRunOptions({ config: args.config, reportDir: args.reportDir }, io.cwd);
  const reportDir = o.reportDirGiven ? o.reportDir : resolve(io.cwd, REPORT_DIRS.audit);
  const host = args.host ?? LISTEN_DEFAULTS.host;
  const webhookUrl = args.webhookUrl ? httpUrl(String(args.webhookUrl)) : undefined;
  let audit: Audit;
  try {
    audit = await startAudit({ port: parsePort('port', args.port) ?? LISTEN_DEFAULTS.port, pciPort: parsePort('pci-port', args.pciPort) ?? LISTEN_DEFAULTS.port, host, plan, webhookUrl, strict: !!args.strict, ...(minExercised !== undefined ? { minExercised } : {}), ...(args.pciAuth ? { pciAuth: args.pciAuth } : {}) });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') throw new ConfigError(`cannot listen on ${host}: ${code}`);
    throw e;
  }
  const { stop, dispose } = stopSignal(duration);
  try {
    const line = JSON.stringify(audit.profile);
    io.stdout.write(`${line}\n`);
    if (args.profileOut) await writeFile(resolve(io.cwd, args.profileOut), `${line}\n`, { mode: 0o600 });
    await stop;
    const v = await audit.verdict();
    await writeAuditReports(v, audit.plan, { json: join(reportDir, AUDIT_FILES.json), junit: join(reportDir, AUDIT_FILES.junit), html: join(reportDir, AUDIT_FILES.html) });
    if (args.har) await writeAuditHar(v, audit.profile, resolve(io.cwd, String(args.har)));
    io.stdout.write(formatVerdict(v));
    io.stdout.write(`reports: ${join(reportDir, AUDIT_FILES.html)}${args.har ? `, ${resolve(io.cwd, String(args.har))}` : ''}\n`);
    return v.exitCode;
  } finally {
    dispose();
    await audit.close();
  }
}

export const auditCommand: CommandImpl<AuditArgs> = {
  builder: (y: Argv) =>
    // audit: Ctrl-C (SIGINT) or SIGTERM ends the audit and writes the verdict: that is how it stops;
    // --report-dir gets audit.json, junit.xml and audit.html (default ./baas-conform-audit).
    sharedFlags(y, 'config', 'port', 'pci-port', 'host', 'report-dir', 'har', 'strict', 'profile-out', 'pci-auth')
      .option('duration', { type: 'number', describe: 'End after this many seconds (default: at SIGINT/SIGTERM)' })
      .option('faults', { type: 'string', describe: 'Fault plan YAML (spec/schemas/audit-plan.schema.json; default: the built-in plan)' })
      .option('min-exercised', { type: 'number', describe: `Fewer client rules exercised than this ends the audit inconclusive (exit 4) unless a rule failed (default ${DEFAULT_MIN_EXERCISED}; 0: no floor)` })
      .option('webhook-url', { type: 'string', describe: "Your webhook receiver's base URL: webhooks are delivered to it (twice, late, with extra fields)" }),
  run: auditHandler,
};
