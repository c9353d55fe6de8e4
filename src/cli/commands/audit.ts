// `baas-conform audit`: certify a partner's client. Starts the embedded reference in audit mode,
// prints the client profile as the first stdout line, records and judges the client's calls until
// SIGINT/SIGTERM or --duration, writes audit.json, junit.xml and audit.html, exits 0/1 like `run`,
// or 4 when it judged nothing (no client called, or no client rule exercised).

import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { DEFAULT_MIN_EXERCISED, renderAudit, runAuditMode } from '../../api/audit.ts';
import type { RunFlagValues } from '../../options/index.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { sharedFlags } from '../flags.ts';

/** Resolves when the audit is to end by a signal (--duration is runAuditMode's). */
function stopSignal(): { stop: Promise<void>; dispose(): void } {
  let onSignal: () => void = () => {};
  const stop = new Promise<void>((r) => {
    onSignal = () => r();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  return { stop, dispose: () => { process.off('SIGINT', onSignal); process.off('SIGTERM', onSignal); } };
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
  const { duration, minExercised, port, pciPort, host, webhookUrl, strict, pciAuth } = args;
  const { stop, dispose } = stopSignal();
  try {
    const { verdict, files } = await runAuditMode({
      flags: { duration, minExercised, port, pciPort, host, webhookUrl, strict, pciAuth },
      ...(args.faults ? { faults: args.faults } : {}),
      ...(args.config !== undefined ? { config: String(args.config) } : {}),
      ...(args.reportDir !== undefined ? { reportDir: String(args.reportDir) } : {}),
      ...(args.profileOut ? { profileOut: args.profileOut } : {}),
      ...(args.har ? { har: String(args.har) } : {}),
      cwd: io.cwd,
      onProfile: (profile) => void io.stdout.write(`${JSON.stringify(profile)}\n`),
      until: stop,
    });
    io.stdout.write(renderAudit(verdict));
    io.stdout.write(`reports: ${files.html}${files.har ? `, ${resolve(io.cwd, files.har)}` : ''}\n`);
    return verdict.exitCode;
  } finally {
    dispose();
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
