// What a mutant variant is. A FAULTY variant breaks exactly one documented rule (a spec/rules id); a
// BENIGN variant changes only what the spec leaves free. The union makes "faulty without a rule" and
// "benign with a rule" unrepresentable.
//
// Mutations use, in order of preference: the reference's named fault points (options.faults), a
// response transform (options.transform: status, headers, body of one response), reference options
// (latency, rate limits), and, only where the request must be seen or the transport framing changed,
// the interception proxy (proxy.ts).

import type { FaultPoint, ReferenceOptions, ReferenceTls } from '../reference/index.ts';
import type { ProxyHooks } from './proxy.ts';

import { renderSpecText } from '../model/facts.ts';
import type { Model, OperationId, RuleId, WebhookId } from '../model/types.ts';

// The generated union (src/generated/ids.ts): a variant breaking a rule spec/rules lacks fails tsc.
export type { RuleId };

interface VariantBase {
  /** Stable id, e.g. `token.client-id-missing.wrong-message`. */
  id: string;
  description: string;
  /** Reference options: faults, transform, latencyMs, rateLimit. */
  options: Partial<ReferenceOptions>;
  /** Request-aware or transport-level mutation through the interception proxy (proxy.ts). */
  proxy?: ProxyHooks;
  /**
   * Keep the reference's own token rate limit instead of the selftest's short window: the variant is
   * about the limit itself. Such variants are run first, apart from the rest (their runs are longest).
   */
  realRateLimit?: true;
  /**
   * Checks run at once in this variant's run (default: the selftest's checkConcurrency). For a
   * variant whose runs only wait (latency): more at once shortens its wall time, not its CPU.
   */
  checkConcurrency?: number;
  /**
   * The base per-check time limit of this variant's run (default: the runner's). A small base lets a
   * latency variant show that the limit follows observed latency (src/runner/time-limit.ts) with
   * minutes less waiting than the default base would need.
   */
  checkTimeoutMs?: number;
  /**
   * Serve the reference over HTTPS with these protocol settings (run-variant.ts makes a throw-away
   * CA and names it as profile.ca_file): a transport variant. Not combined with `proxy` (plain HTTP).
   */
  tls?: VariantTls;
  /**
   * The checks whose runs reach the fault, when they are not all the checks of the broken rule: a
   * rule judged on every answer (ERR-CATEGORY-STATUS) is caught where the fault sits, and a rule of
   * two checks may have its fault in the part one of them judges. The minimal-profile accounting
   * (selftest.ts hiddenBy) judges reachability by these: all of them skipped, the fault is hidden by
   * their missing services. registry.test.ts checks that each names a check.
   */
  reach?: readonly string[];
}

/** The protocol side of a TLS variant; the identity (key, certificate, CA file) is made per run. */
export type VariantTls = Pick<ReferenceTls, 'minVersion' | 'maxVersion' | 'ciphers'>;

/** A variant as an area file declares it. */
export type VariantSpec = VariantBase & ({ kind: 'faulty'; breaks: RuleId } | { kind: 'benign' });

/**
 * A variant in the bank: its spec, the area and topic of the rule it breaks (spec/placement.yaml;
 * `benign` for a benign variant), and the set it belongs to (the default bank or an opt-in set).
 */
export type MutantVariant = VariantSpec & { area: string; topic: string; set: 'default' | 'pending' | 'slow' };

export type VariantKind = VariantSpec['kind'];

/** The rules a variant breaks, as a list (empty for a benign variant). */
export const brokenRules = (v: VariantSpec): RuleId[] => (v.kind === 'faulty' ? [v.breaks] : []);

export const faulty = (id: string, breaks: RuleId, description: string, options: Partial<ReferenceOptions>, proxy?: ProxyHooks): VariantSpec => ({
  id,
  kind: 'faulty',
  breaks,
  description,
  options,
  ...(proxy ? { proxy } : {}),
});

export const benign = (id: string, description: string, options: Partial<ReferenceOptions>, proxy?: ProxyHooks): VariantSpec => ({
  id,
  kind: 'benign',
  description,
  options,
  ...(proxy ? { proxy } : {}),
});

/**
 * Checks at once in the run of a variant whose checks mostly wait (latency, a late webhook, a wallet
 * polled for, a stalled answer, Retry-After): the waits overlap instead of queueing four at a time.
 * The verdicts do not depend on it; the selftest also starts these runs first (selftest.ts).
 */
export const WAITING_CHECK_CONCURRENCY = 12;

/** A variant whose run mostly waits: its checks run WAITING_CHECK_CONCURRENCY at once. */
export const waiting = (v: VariantSpec): VariantSpec => ({ ...v, checkConcurrency: WAITING_CHECK_CONCURRENCY });

/** Reference options switching on the named fault points (src/reference/faults.ts). */
export const faults = (...names: FaultPoint[]): Partial<ReferenceOptions> => ({ faults: new Set(names) });

/**
 * An operation named in a variant description: rendered "METHOD /path" from the model when the
 * description is shown (describeVariant), so a description never restates a path spec/ holds.
 */
export const op = (id: OperationId): string => `{op:${id}}`;
/** A webhook delivery path named in a variant description (rendered like op). */
export const webhook = (id: WebhookId): string => `{webhook:${id}}`;

/** The variant's description with the spec facts it names rendered from the model. */
export const describeVariant = (v: Pick<VariantSpec, 'description'>, model: Pick<Model, 'operation' | 'errorRule' | 'webhookPath'>): string =>
  renderSpecText(v.description, model);
