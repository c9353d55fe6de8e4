// The audit mode's qualified options: its bounds in one place, every problem in one error.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors/index.ts';
import { AUDIT_BOUNDS, AUDIT_DEFAULTS, qualifyAudit } from './options.ts';

describe('audit options, qualified once', () => {
  it('names every bad flag in one ConfigError', () => {
    let err: unknown;
    try {
      qualifyAudit({ duration: 0, minExercised: 1.5, port: 70_000, webhookUrl: 'ftp://x', pciAuth: 'cookie' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    for (const flag of ['--duration', '--min-exercised', '--port', '--webhook-url', '--pci-auth']) expect((err as Error).message).toContain(flag);
    expect(() => qualifyAudit({ duration: 0, pciPort: -1 })).toThrow(new ConfigError('--duration must be a number of seconds from 1 to 86400, got 0; --pci-port must be a port number from 0 to 65535, got -1'));
  });

  it('applies the defaults and keeps values inside the bounds', () => {
    expect(qualifyAudit({})).toEqual({ port: AUDIT_DEFAULTS.port, pciPort: AUDIT_DEFAULTS.pciPort, host: AUDIT_DEFAULTS.host, strict: false });
    expect(qualifyAudit({ duration: AUDIT_BOUNDS.durationS.max, minExercised: 0, pciAuth: 'user' })).toMatchObject({ durationS: AUDIT_BOUNDS.durationS.max, minExercised: 0, pciAuth: 'user' });
  });
});
