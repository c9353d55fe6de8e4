// Per-run services: the test identity provider and the webhook receiver, started on loopback and
// registered with the target through the test-control API. A failure here is not fatal: the checks
// that need the service skip with the reason.

import type { RunServices } from '../checks/types.ts';
import type { HttpSession } from '../client/http.ts';
import { startTestIdp, type TestIdp } from '../idp/index.ts';
import { startWebhookReceiver, type TestWebhookReceiver } from '../webhooks/index.ts';
import type { ServiceProblems } from './needs.ts';

export interface StartedServices {
  services: RunServices;
  problems: ServiceProblems;
  close(): Promise<void>;
}

function describeFailure(what: string, err: unknown, mask: (s: string) => string): string {
  return mask(`${what} failed: ${(err as Error)?.message ?? String(err)}`);
}

async function register(session: HttpSession, path: string, body: unknown): Promise<string | undefined> {
  try {
    const res = await session.client('services').send({ method: 'PUT', path, server: 'control', body });
    if (res.status >= 200 && res.status < 300) return undefined;
    return session.mask(`PUT ${session.profile.control_url}${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
  } catch (err) {
    return describeFailure(`PUT ${session.profile.control_url}${path}`, err, (s) => session.mask(s));
  }
}

/** Starts only what the selected checks need (`want`), and only when the control API can register it. */
export async function startServices(session: HttpSession, want: { idp: boolean; webhooks: boolean }): Promise<StartedServices> {
  const { profile } = session;
  const services: RunServices = {};
  const problems: ServiceProblems = {};
  let idp: TestIdp | undefined;
  let webhooks: TestWebhookReceiver | undefined;
  if (profile.control_url && want.webhooks) {
    try {
      webhooks = await startWebhookReceiver();
      const problem = await register(session, '/webhooks', { base_url: webhooks.baseUrl });
      if (problem) {
        problems.webhooks = problem;
        await webhooks.close();
        webhooks = undefined;
      } else services.webhooks = webhooks;
    } catch (err) {
      problems.webhooks = describeFailure('starting the webhook receiver', err, (s) => session.mask(s));
    }
  }
  if (profile.control_url && profile.idp?.enabled && want.idp) {
    try {
      idp = await startTestIdp();
      const problem = await register(session, '/idp', { client_id: profile.clients[0].client_id, app_id: idp.appId, jwks_url: idp.jwksUrl });
      if (problem) {
        problems.idp = problem;
        await idp.close();
        idp = undefined;
      } else services.idp = idp;
    } catch (err) {
      problems.idp = describeFailure('starting the test identity provider', err, (s) => session.mask(s));
    }
  }
  return {
    services,
    problems,
    async close() {
      await Promise.all([idp?.close(), webhooks?.close()]);
    },
  };
}
