// `baas-conform serve`: run the reference implementation as a standalone target. The first stdout
// line is the target profile as one JSON line (secrets included: it is the credential hand-off);
// the server runs until SIGINT/SIGTERM and then closes cleanly (exit 0). With --tls it serves HTTPS
// under a CA made at startup, writes that CA next to the profile and names it as profile.ca_file.

import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { ConfigError } from '../../errors/index.ts';
import { DEFAULT_RATE_LIMIT, generateTlsIdentity, startReference, type RateLimitOptions, type ReferenceServer, type ReferenceTls } from '../../api/serve.ts';
import { LISTEN_DEFAULTS, parseNumber, parsePort, positiveInt } from '../../options/index.ts';
import type { CliIo, CommandImpl } from '../types.ts';
import { sharedFlags } from '../flags.ts';

export interface ServeArgs {
  port?: number;
  pciPort?: number;
  host?: string;
  control?: boolean;
  profileOut?: string;
  /** Token-endpoint limits (section 8 shows no numbers: the reference's choice, published as profile.rate_limit). */
  rateLimitPerIp?: number;
  rateLimitPerClient?: number;
  /** Window of both limits, in seconds (profile.rate_limit.window_seconds). */
  rateLimitWindow?: number;
  /** Serve HTTPS under a CA generated at startup. */
  tls?: boolean;
  /** Where the CA goes (default: beside --profile-out as <name>-ca.pem, else baas-conform-ca.pem in the cwd). */
  caOut?: string;
  /** Protect card tokenization (its authentication is not shown) with these credentials; published as profile.operation_auth. */
  pciAuth?: 's2s' | 'user' | 'headers';
}

/** The token limits the flags ask for, each missing one from the reference's defaults; undefined when none is given. */
function rateLimitOf(args: ServeArgs): RateLimitOptions | undefined {
  if (args.rateLimitPerIp === undefined && args.rateLimitPerClient === undefined && args.rateLimitWindow === undefined) return undefined;
  return {
    perIp: args.rateLimitPerIp === undefined ? DEFAULT_RATE_LIMIT.perIp : positiveInt('rate-limit-per-ip', args.rateLimitPerIp)!,
    perClient: args.rateLimitPerClient === undefined ? DEFAULT_RATE_LIMIT.perClient : positiveInt('rate-limit-per-client', args.rateLimitPerClient)!,
    windowMs: args.rateLimitWindow === undefined ? DEFAULT_RATE_LIMIT.windowMs : Math.round(parseNumber('rate-limit-window', args.rateLimitWindow, { min: Number.MIN_VALUE, what: 'a positive number (seconds)' })! * 1000),
  };
}

/** The CA file of `serve --tls`: next to the profile, so a profile file and its ca_file travel together. */
export function caFileFor(args: Pick<ServeArgs, 'profileOut' | 'caOut'>, cwd: string): string {
  if (args.caOut) return resolve(cwd, args.caOut);
  if (args.profileOut) return resolve(cwd, `${args.profileOut.replace(/\.json$/i, '')}-ca.pem`);
  return resolve(cwd, 'baas-conform-ca.pem');
}

async function tlsOptions(args: ServeArgs, cwd: string): Promise<ReferenceTls> {
  const id = await generateTlsIdentity([args.host ?? LISTEN_DEFAULTS.host]);
  const caFile = caFileFor(args, cwd);
  try {
    await writeFile(caFile, id.caPem, { mode: 0o644 });
  } catch (e) {
    throw new ConfigError(`cannot write the CA file ${caFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return { key: id.keyPem, cert: id.certPem, caFile };
}

/** Starts the reference, prints the profile line and resolves when `stop` resolves (after closing). */
export async function serve(args: ServeArgs, io: CliIo, stop: Promise<unknown>): Promise<number> {
  let ref: ReferenceServer;
  const rateLimit = rateLimitOf(args);
  const host = args.host ?? LISTEN_DEFAULTS.host;
  try {
    ref = await startReference({
      ...(rateLimit ? { rateLimit } : {}),
      host,
      port: parsePort('port', args.port) ?? LISTEN_DEFAULTS.port,
      pciPort: parsePort('pci-port', args.pciPort) ?? LISTEN_DEFAULTS.port,
      control: args.control !== false,
      ...(args.tls ? { tls: await tlsOptions(args, io.cwd) } : {}),
      ...(args.pciAuth ? { pciAuth: args.pciAuth } : {}),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new ConfigError(`cannot listen on ${host}: ${code}`);
    }
    throw e;
  }
  try {
    const line = JSON.stringify(ref.profile);
    io.stdout.write(`${line}\n`);
    if (args.profileOut) await writeFile(resolve(io.cwd, args.profileOut), `${line}\n`, { mode: 0o600 });
    await stop;
  } finally {
    await ref.close();
  }
  return 0;
}

export const serveCommand: CommandImpl<ServeArgs> = {
  builder: (y: Argv) =>
    sharedFlags(y, 'port', 'pci-port', 'host', 'profile-out', 'pci-auth')
      .option('control', { type: 'boolean', default: true, describe: 'Serve the test-control API under /__control (--no-control to disable)' })
      .option('rate-limit-per-ip', { type: 'number', describe: `Token requests allowed per IP per window (default ${DEFAULT_RATE_LIMIT.perIp}; published as profile.rate_limit.per_ip)` })
      .option('rate-limit-per-client', { type: 'number', describe: `Token requests allowed per client per window (default ${DEFAULT_RATE_LIMIT.perClient}; profile.rate_limit.per_client)` })
      .option('rate-limit-window', { type: 'number', describe: `Window of both token limits in seconds (default ${DEFAULT_RATE_LIMIT.windowMs / 1000}; profile.rate_limit.window_seconds). Keep it longer than any latency in front of the server: a probe burst must fit one window` })
      .option('tls', { type: 'boolean', default: false, describe: 'Serve HTTPS (TLS 1.2+) under a CA generated at startup; the CA is written next to the profile and named as profile.ca_file' })
      .option('ca-out', { type: 'string', describe: 'With --tls: write the CA here (default: <profile-out>-ca.pem, or baas-conform-ca.pem in the cwd)' }),
  run: (args, io) => {
    let onSignal: () => void = () => {};
    const stop = new Promise<void>((r) => {
      onSignal = () => r();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    });
    return serve({ port: args.port, pciPort: args.pciPort, host: args.host, control: args.control, profileOut: args.profileOut, rateLimitPerIp: args.rateLimitPerIp, rateLimitPerClient: args.rateLimitPerClient, rateLimitWindow: args.rateLimitWindow, tls: args.tls, caOut: args.caOut, pciAuth: args.pciAuth }, io, stop).finally(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
  },
};
