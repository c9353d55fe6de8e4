// Section 8 transport: HTTPS, TLS 1.2 or newer. A TLS variant serves the reference over HTTPS under a
// throw-away CA (run-variant.ts). SECLEVEL=0 on the server: OpenSSL 3 refuses TLS 1.0/1.1 at its default
// security level, and a faulty server is exactly one that lowered it.
//
// Not in the bank, pinned in suites/drivers/limits-tls.test.ts instead: a TLS 1.1-only server (the
// client refuses it too, so the preflight stops the run before any check could judge it) and a TLS
// 1.3-only server (conforms; a whole-suite run over TLS under the selftest's load only adds time-outs
// that say nothing about TLS).

import { faulty, type VariantSpec } from '../variant.ts';

export const LEGACY_CIPHERS = 'DEFAULT@SECLEVEL=0';

export function transportVariants(): VariantSpec[] {
  return [
    // Every other check passes over TLS 1.3: only the refusal of the old versions is missing.
    { ...faulty('transport.tls-accepts-1.1', 'LIMIT-TRANSPORT-TLS', 'serves HTTPS with TLS 1.2/1.3 but still accepts TLS 1.1', {}), tls: { minVersion: 'TLSv1.1', ciphers: LEGACY_CIPHERS } },
  ];
}
