// The audit mode's options, qualified once: every default and bound of `audit` (the CLI flags, the
// config file's report directory, library callers of runAuditMode) is written here, and every problem
// is reported at once in one ConfigError.

import { LISTEN_DEFAULTS } from '../options/defaults.ts';
import { parsePort } from '../options/numbers.ts';
import { OptionProblems, type FlagBounds } from '../options/problems.ts';
import { DEFAULT_MIN_EXERCISED } from './verdict.ts';

export const AUDIT_DEFAULTS = { host: LISTEN_DEFAULTS.host, port: LISTEN_DEFAULTS.port, pciPort: LISTEN_DEFAULTS.port, minExercised: DEFAULT_MIN_EXERCISED, strict: false } as const;

export const AUDIT_BOUNDS = {
  durationS: { flag: 'duration', min: 1, max: 86_400, what: 'a number of seconds from 1 to 86400' },
  minExercised: { flag: 'min-exercised', min: 0, max: 100, integer: true, what: 'a whole number of client rules from 0 to 100' },
} as const satisfies Record<string, FlagBounds>;

export const PCI_AUTH_MODES = ['s2s', 'user', 'headers'] as const;

/** The audit's knobs as flag values. */
export interface AuditFlagValues {
  duration?: number;
  minExercised?: number;
  port?: number;
  pciPort?: number;
  host?: string;
  webhookUrl?: string;
  strict?: boolean;
  pciAuth?: string;
}

export interface QualifiedAudit {
  /** Seconds until the audit ends by itself (none: until the caller stops it). */
  durationS?: number;
  minExercised?: number;
  port: number;
  pciPort: number;
  host: string;
  webhookUrl?: string;
  strict: boolean;
  pciAuth?: (typeof PCI_AUTH_MODES)[number];
}

function httpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Defaults and bounds of one audit; throws one ConfigError naming every problem. */
export function qualifyAudit(f: AuditFlagValues): QualifiedAudit {
  const p = new OptionProblems();
  const durationS = p.num(AUDIT_BOUNDS.durationS, f.duration);
  const minExercised = p.num(AUDIT_BOUNDS.minExercised, f.minExercised);
  const port = p.attempt(() => parsePort('port', f.port), undefined) ?? AUDIT_DEFAULTS.port;
  const pciPort = p.attempt(() => parsePort('pci-port', f.pciPort), undefined) ?? AUDIT_DEFAULTS.pciPort;
  p.check(f.webhookUrl === undefined || httpUrl(String(f.webhookUrl)), `--webhook-url must be an http(s) URL of your webhook receiver, got ${JSON.stringify(f.webhookUrl)}`);
  const pciAuth = PCI_AUTH_MODES.find((x) => x === f.pciAuth);
  p.check(f.pciAuth === undefined || pciAuth !== undefined, `--pci-auth must be one of ${PCI_AUTH_MODES.join(', ')}, got ${JSON.stringify(f.pciAuth)}`);
  p.throwIfAny();
  return {
    ...(durationS !== undefined ? { durationS } : {}),
    ...(minExercised !== undefined ? { minExercised } : {}),
    port,
    pciPort,
    host: f.host ?? AUDIT_DEFAULTS.host,
    ...(f.webhookUrl ? { webhookUrl: String(f.webhookUrl) } : {}),
    strict: !!f.strict,
    ...(pciAuth ? { pciAuth } : {}),
  };
}
