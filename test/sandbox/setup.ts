// Builds the "real sandbox" situation on loopback: the reference with its control API hidden from the
// profile, the vendor simulation in front of it, the adapter file, an external webhook receiver address
// and a stable identity-provider key registered out of band (the vendor dashboard). Used by
// sandbox.test.ts and, for measurements by hand, by `npx tsx test/sandbox/start.ts`.

import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { TargetProfile } from '../../src/profile/types.ts';
import { EMBEDDED_RUN_RATE_LIMIT, startReference, type ReferenceServer } from '../../src/reference/index.ts';
import { dashboard, startVendorSim, type VendorSim } from './vendor-sim.ts';

export const ADAPTER_FILE = fileURLToPath(new URL('./vendor-adapter.yaml', import.meta.url));

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A private ES256 JWK: made once and kept, as a partner keeps the key it registered with the vendor. */
export async function makeSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: 'partner-key-1' };
}

export interface Sandbox {
  reference: ReferenceServer;
  sim: VendorSim;
  /** The reference's own profile (control API on): the "before" of the comparison. */
  controlProfile: TargetProfile;
  /** No control_url: adapter file, external receiver, out-of-band identity provider. */
  sandboxProfile: TargetProfile;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startSandbox(opts: { signingKey?: JWK; adapterFile?: string } = {}): Promise<Sandbox> {
  // The embedded default run's token limits (a one-second window, published in the profile): every
  // full run waits out one window in the rate-limit checks, not the ten seconds of the default.
  const reference = await startReference({ name: 'reference behind a vendor simulation', rateLimit: EMBEDDED_RUN_RATE_LIMIT });
  const controlUrl = reference.profile.control_url!;
  const key = `sim-${Math.random().toString(36).slice(2)}-key`;
  const sim = await startVendorSim(controlUrl, key);
  const [hookPort, jwksPort] = [await freePort(), await freePort()];
  const appId = 'vendor-dashboard-app-1';
  const jwksUrl = `http://127.0.0.1:${jwksPort}/partner/keys.json`;
  const { control_url: _hidden, ...rest } = reference.profile;
  const sandboxProfile: TargetProfile = {
    ...rest,
    name: 'vendor sandbox (no control API)',
    control_adapter: opts.adapterFile ?? ADAPTER_FILE,
    webhooks: { listen: `127.0.0.1:${hookPort}`, public_url: `http://127.0.0.1:${hookPort}` },
    idp: { enabled: true, app_id: appId, signing_key: (opts.signingKey ?? (await makeSigningKey())) as Record<string, unknown>, jwks_listen: `127.0.0.1:${jwksPort}`, jwks_url: jwksUrl },
  };
  // The partner set these in the vendor's dashboard once; the toolkit never calls a control API for them.
  await dashboard(controlUrl, {
    webhookUrl: sandboxProfile.webhooks!.public_url,
    idp: { client_id: reference.profile.clients[0].client_id, app_id: appId, jwks_url: jwksUrl },
  });
  return {
    reference,
    sim,
    controlProfile: reference.profile,
    sandboxProfile,
    env: { VENDOR_SIM_URL: sim.url, VENDOR_SIM_KEY: key },
    async close() {
      await sim.close();
      await reference.close();
    },
  };
}
