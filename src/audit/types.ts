// Shapes shared by the client audit: what one recorded exchange holds, what a judge returns, and the
// verdict of a whole audit. Recorded exchanges are the only evidence a judge may use.

import type { Conclusion } from '../errors/index.ts';
import type { Stall } from './stalls.ts';
import type { ClientRule, ClientRuleId, OperationId } from '../model/types.ts';

/** One request the client made to base_url or pci_url, as the audit saw it. Secrets are redacted. */
export interface Exchange {
  seq: number;
  server: 'api' | 'pci';
  method: string;
  path: string;
  query: string;
  /** The operation the request matched; undefined for a request no route matches (it is still judged). */
  operationId?: OperationId;
  /** Request headers, names lower-cased; Authorization shows which token was used, never the token. */
  headers: Record<string, string>;
  /** Parsed body (JSON or form), secrets redacted; undefined when there was none or it did not parse. */
  body?: unknown;
  /** Body text (bounded, secrets redacted) for judges that look for values anywhere in it. */
  bodyText: string;
  /** Epoch ms the request arrived, and when the answer was sent (or the client abandoned it). */
  startMs: number;
  endMs?: number;
  status?: number;
  responseBody?: unknown;
  /** The client closed the connection before the answer (epoch ms). */
  abandonedMs?: number;
  /** An adverse condition the audit imposed instead of (or before) forwarding. */
  injected?: { kind: 'rate-limit'; burst?: string; retryAfter?: number } | { kind: 'stall'; ms: number } | { kind: 'expired' };
  /** The token the request presented, when the audit issued it. */
  token?: { kind: 's2s' | 'user'; n: number; expiresAtSec?: number };
  /** createToken: the client_id of the request. */
  clientId?: string;
}

/** A webhook delivery to the client's receiver. */
export interface Delivery {
  seq: number;
  path: string;
  attempt: 'first' | 'repeat';
  startMs: number;
  status?: number;
  error?: string;
}

export type JudgeStatus = 'pass' | 'fail' | 'not-exercised';

/** What a judge concludes from the recorded traffic. */
export interface Judgement {
  status: JudgeStatus;
  message: string;
  /** The exchanges (seq) the judgement was drawn from. */
  exchanges: number[];
  /** Webhook deliveries (seq) it was drawn from. */
  deliveries?: number[];
}

export type RuleStatus = 'pass' | 'fail' | 'warn' | 'not-exercised' | 'untestable';

export interface RuleOutcome extends Judgement {
  id: ClientRuleId;
  level: ClientRule['level'];
  section: string;
  quote: string;
  summary: string;
  cites?: string;
  outcome: RuleStatus;
}

export interface AuditVerdict {
  /** 0: no required rule failed (and, under strict, no recommended one); 1 otherwise; 4: no rule was judged (inconclusive). */
  exitCode: 0 | 1 | 4;
  verdict: Conclusion;
  /** Why nothing was judged ("INCONCLUSIVE: the audit judged nothing because ..."), when so. */
  inconclusive?: string;
  strict: boolean;
  rules: RuleOutcome[];
  counts: Record<RuleStatus, number>;
  exchanges: Exchange[];
  deliveries: Delivery[];
  /** Exchanges served past the recording cap (MAX_EXCHANGES), judged by none. */
  dropped: number;
  /** The audit's own event-loop stalls (stalls.ts): the timing judges do not count them as the client's waits. */
  stalls: Stall[];
}

/** The first stdout line of `baas-conform audit`: everything a client needs to run against the audit. */
export interface AuditProfile {
  side: 'client';
  base_url: string;
  pci_url: string;
  /** Test-control API of the reference: calls to it are not the client's traffic and are never judged. */
  control_url?: string;
  credentials: { client_id: string; client_secret: string };
  chain_id: string;
  /** The scaled timeout and refresh buffer the audit judges against (scaled from the section 8 values). */
  request_timeout_seconds: number;
  token_refresh_buffer_seconds: number;
  /** A card number for the card-tokenization environment (never to be sent to base_url). */
  test_card: { card_number: string; expiry_month: number; expiry_year: number; cvv: string };
  /** Where the audit delivers webhooks (--webhook-url), when set. */
  webhook_url?: string;
}
