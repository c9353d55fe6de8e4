// The documented partner flow one journey walks: S2S token, user creation, user token (section 5
// user token issuance), card creation, card tokenization and a Card recipient, Push to Card estimate
// and execute (section 4 rule 3), and the activity webhook that reports the transfer (section 6 rule
// 1). Each step is an operation of the model, so the result's per-operation figures are the per-step
// percentiles.

import type { WebhookReceiver } from '../checks/types.ts';
import { operationAuthHeaders, operationAuthOf } from '../client/index.ts';
import { userHeaders } from './mix.ts';
import { StepFailed, type JourneyTraffic } from './journey-traffic.ts';
import { newUserBody, tokenBody, type SetupHttp } from './setup.ts';
import { refreshBufferSec } from './tokens.ts';

export const JOURNEY_STEPS = ['createToken', 'createUserV2', 'authorizeUser', 'createVirtualCard', 'tokenizeCard', 'createRecipientV2', 'estimateCardTransfer', 'executeCardTransfer', 'webhookActivities'] as const;

export interface FlowOptions {
  http: SetupHttp;
  thinkTimeMs: number;
  /** The receiver the target delivers to; without it the webhook step is left out. */
  webhooks?: WebhookReceiver;
  webhookTimeoutMs: number;
}

export interface JourneyCounts {
  started: number;
  completed: number;
  /** Journeys that ended early, by the step they broke at ('client' for a fault on our side). */
  broken: Record<string, number>;
}

export interface JourneyFlow {
  counts: JourneyCounts;
  /** Walks one journey; never throws (a broken journey is counted). */
  journey(): Promise<void>;
  /** The think time between steps (and between a user's journeys). */
  think(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function testCard(): Record<string, string> {
  return { card_number: '4111111111111111', expiry_month: '12', expiry_year: String(new Date().getUTCFullYear() + 3), cvv: '123', holder_name: 'Ada Lovelace' };
}

export function journeyFlow(t: JourneyTraffic, o: FlowOptions): JourneyFlow {
  const s = o.http;
  const model = s.model;
  const counts: JourneyCounts = { started: 0, completed: 0, broken: {} };
  const think = () => (o.thinkTimeMs > 0 ? sleep(o.thinkTimeMs) : Promise.resolve());
  const chain = model.auth.chain_header.toLowerCase();
  // The S2S form of the user-token exchange names the user by its EOA address (section 5).
  const wallet = (model.auth.identity_headers.find((h) => /wallet/i.test(h)) ?? model.auth.identity_headers[0]).toLowerCase();

  // The partner backend caches its S2S token and refreshes it the section 8 buffer before expires_at
  // (section 5): the token step runs when the cache is empty or due, once for all journeys waiting.
  // One cache per profile client: clients[0] for the flow, another only when profile.operation_auth
  // sends tokenization with another client's token.
  const cached = new Map<number, { token: string; refreshAt: number }>();
  const fetching = new Map<number, Promise<string>>();
  const buffer = refreshBufferSec(model) * 1000;
  const s2s = async (client = 0): Promise<string> => {
    const held = cached.get(client);
    if (held && Date.now() < held.refreshAt) return held.token;
    let p = fetching.get(client);
    if (!p) {
      p = (async () => {
        try {
          const tok = await t.step('createToken', {}, tokenBody(s.profile.clients[client], model));
          const expires = typeof tok?.expires_at === 'number' ? tok.expires_at * 1000 : Date.now() + 60_000;
          const fresh = { token: String(tok?.access_token), refreshAt: Math.max(Date.now() + 1000, expires - buffer) };
          cached.set(client, fresh);
          await think();
          return fresh.token;
        } finally {
          fetching.delete(client);
        }
      })();
      fetching.set(client, p);
    }
    return p;
  };
  // Card tokenization's credentials are not shown by the spec: profile.operation_auth says (none by default).
  const tokenizeAuth = operationAuthOf(model, s.profile, 'tokenizeCard');

  const journey = async () => {
    counts.started++;
    try {
      const token = await s2s();
      const userBody = newUserBody(model);
      const created = await t.step('createUserV2', { authorization: `Bearer ${token}` }, userBody);
      const userId = typeof created === 'string' ? created : (created?.user_id ?? created?.id);
      await think();
      const address = String(Object.values(userBody).find((v) => /^0x/.test(String(v))) ?? '');
      const userToken = (await t.step('authorizeUser', { authorization: `Bearer ${token}`, [wallet]: address, [chain]: s.profile.chain_id }))?.access_token as string;
      const asUser = userToken ? { authorization: `Bearer ${userToken}`, [chain]: s.profile.chain_id } : userHeaders(model, token, String(userId), s.profile.chain_id);
      await think();
      await t.step('createVirtualCard', asUser, { card_name: `journey ${counts.started}` });
      await think();
      const pciHeaders = tokenizeAuth ? await operationAuthHeaders(model, s.profile, tokenizeAuth, { s2s, user: async () => userToken }) : {};
      const cardToken = (await t.step('tokenizeCard', pciHeaders, testCard()))?.card_token;
      await think();
      const recipient = await t.step('createRecipientV2', asUser, { type: 'Card', first_name: 'Ada', last_name: 'Lovelace', is_business: false, card_token: cardToken });
      const details = Array.isArray(recipient?.payment_details) ? recipient.payment_details : [recipient?.payment_details];
      const pd = (details.find((d) => (d as { type?: unknown } | null)?.type === 'Card') ?? details[0]) as { id?: unknown } | undefined;
      await think();
      const estimate = await t.step('estimateCardTransfer', asUser, { amount: '10.00', currency: 'EUR', ...(recipient?.id ? { recipient_id: recipient.id } : {}), payment_details_id: pd?.id });
      await think();
      const executed = await t.step('executeCardTransfer', asUser, { estimation_id: estimate?.estimation_id });
      if (o.webhooks) {
        // From the execute answer to the delivery that names the transfer's activity.
        const activityId = String(executed?.activity_id ?? '');
        await t.delivery('webhookActivities', o.webhooks, model.webhookPath('activities'), (body) => JSON.stringify(body ?? '').includes(activityId), o.webhookTimeoutMs);
      }
      counts.completed++;
    } catch (err) {
      const at = err instanceof StepFailed ? err.message : 'client';
      counts.broken[at] = (counts.broken[at] ?? 0) + 1;
    }
  };

  return { counts, journey, think };
}
