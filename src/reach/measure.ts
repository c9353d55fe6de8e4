// Runs the checks on the embedded reference, once with its full profile and once with the minimal one
// (no control API, no signing secrets, no identity provider: what a partner without sandbox powers
// has, as `selftest --profile minimal` runs it), recording each check's exchanges. A fault the checks
// of a rule reach only with control or secrets is hidden under the minimal profile: the rule's evidence
// there says so. Two runs of the suite on loopback: seconds, not the selftest's minutes.

import { runConformance } from '../api/conformance.ts';
import type { Check } from '../checks/types.ts';
import type { Model, OperationId } from '../model/types.ts';
import { minimalProfile } from './minimal.ts';
import { EMBEDDED_RUN_RATE_LIMIT, startReference } from '../reference/index.ts';
import { runEvidence, type RunEvidence } from './evidence.ts';
import { reachByCheck, type ReachedRequest } from './exchanges.ts';
import { checksByRule } from './map.ts';

/**
 * full: the reference's own profile. minimal: no control API, secrets or identity provider.
 * silent-webhooks: the full profile with a webhook receiver the reference is never told of (an
 * external receiver, as profile.webhooks declares one), so no webhook arrives: a check that passes
 * or skips then, rather than failing, judges its rule only when the target happens to send one.
 */
export type MeasureProfile = 'full' | 'minimal' | 'silent-webhooks';

/** A port nothing listens on (discard): where the silent profile says its receiver is published. */
const NOWHERE = 'http://127.0.0.1:9';
/** How long a check of the silent run waits for a webhook: none comes, so waiting longer shows nothing more. */
const SILENT_WEBHOOK_WAIT_MS = 1_000;


/** One run of `checks` on a fresh embedded reference under `profile`, as evidence per rule. */
export async function measureOnReference(model: Model, allChecks: Check[], profile: MeasureProfile, seed = 1): Promise<RunEvidence> {
  // The silent run only needs the checks that wait for webhooks.
  const checks = profile === 'silent-webhooks' ? allChecks.filter((c) => (c.needs ?? []).some((n) => n.split('|').includes('webhooks'))) : allChecks;
  const { outcome, reach, paths } = await runOnReference(model, checks, profile, seed);
  const unlocated = [...model.operations.values()].filter((op) => op.pathUnspecified && !paths[op.operationId]?.path).map((op) => op.operationId);
  return runEvidence(model, profile, checksByRule(checks), outcome, reach, unlocated);
}

/** The operations each check reaches on the embedded reference (full profile): spec-diff's narrowing. */
export async function reachOnReference(model: Model, checks: Check[], seed = 1): Promise<Map<string, Set<OperationId>>> {
  return (await runOnReference(model, checks, 'full', seed)).reach;
}

async function runOnReference(model: Model, checks: Check[], profile: MeasureProfile, seed: number) {
  const reference = await startReference({ rateLimit: EMBEDDED_RUN_RATE_LIMIT });
  try {
    const target = profile === 'minimal' ? minimalProfile(reference.profile) : profile === 'silent-webhooks' ? { ...reference.profile, webhooks: { listen: '127.0.0.1:0', public_url: NOWHERE }, webhook_timeout_ms: SILENT_WEBHOOK_WAIT_MS } : reference.profile;
    const requests: ReachedRequest[] = [];
    const outcome = await runConformance({
      profile: target,
      env: {},
      seed,
      model,
      checkList: checks,
      onEvent: (e) => {
        if (e.type === 'exchange') requests.push({ checkId: e.exchange.checkId, method: e.exchange.request.method, url: e.exchange.request.url });
      },
    });
    const paths = reference.profile.operations ?? {};
    return { outcome, reach: reachByCheck(model, requests, paths), paths };
  } finally {
    await reference.close();
  }
}
