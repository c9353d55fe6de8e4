// Trust for a target's private CA (profile.ca_file): an https sandbox whose certificate a private CA
// signed, e.g. `baas-conform serve --tls`. The CA is added to the public roots on the connections to
// this target's own origins only: never process-wide (no NODE_TLS_REJECT_UNAUTHORIZED, no global
// dispatcher), so no other host is trusted on its word.

import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { ConfigError } from '../errors/index.ts';
import type { TargetProfile } from '../profile/types.ts';

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of profile.ca_file (PEM), or undefined without one. Throws ConfigError naming the file. */
export function readTargetCa(profile: Pick<TargetProfile, 'ca_file'>): string[] | undefined {
  const file = profile.ca_file;
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`profile.ca_file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const certs = text.match(PEM_CERT);
  if (!certs) throw new ConfigError(`profile.ca_file ${file}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it`);
  return certs;
}

/** The origins a profile names: the only ones its CA is trusted for. */
export function targetOrigins(profile: Pick<TargetProfile, 'base_url' | 'pci_url' | 'control_url'>): Set<string> {
  const out = new Set<string>();
  for (const u of [profile.base_url, profile.pci_url, profile.control_url]) {
    if (!u) continue;
    try {
      out.add(new URL(u).origin);
    } catch {
      // A malformed URL was already refused by the profile schema; nothing to trust for it.
    }
  }
  return out;
}

/**
 * The TLS context of the target's origins: the public roots plus the target's CA, built once per
 * session. One context for every connection: passing `ca` per connection would parse ~140 root
 * certificates on each handshake (a new source address, a reconnect), tens of ms apiece.
 */
export function targetSecureContext(ca: string[] | undefined): SecureContext | undefined {
  return ca ? createSecureContext({ ca: [...rootCertificates, ...ca] }) : undefined;
}

/** TLS options for a connection to `origin`: the target's context on its https origins; {} (the defaults: public roots only) elsewhere. */
export function tlsConnectOptions(origin: string, trusted: Set<string>, context: SecureContext | undefined): { secureContext?: SecureContext } {
  if (!context || !origin.startsWith('https:') || !trusted.has(origin)) return {};
  return { secureContext: context };
}
