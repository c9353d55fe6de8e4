// Needs: what a check requires of the target. An unmet need skips the check with a reason that names
// the profile field (or control operation) to provide, so the report tells the user how to get more
// coverage. The same reasons feed the needs table of docs/validate-a-vendor-sandbox.md (src/runner/needs-table.ts).

import type { Check, Need, RunServices } from '../checks/types.ts';
import type { Model, OperationId } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';

export const NO_CONTROL = 'needs the test-control API: profile.control_url is not set and no control adapter is given (profile.control_adapter or --control-adapter)';

export interface ServiceProblems {
  idp?: string;
  webhooks?: string;
}

/** The reason a control operation is unavailable, or undefined when the adapter performs it. */
export function missingControlOperation(operationId: string, services: RunServices): string | undefined {
  const adapter = services.control;
  if (!adapter) return `needs control operation ${operationId}: ${NO_CONTROL.replace(/^needs the test-control API: /, '')}`;
  return adapter.supports(operationId) ? undefined : `needs control operation ${operationId}: the ${adapter.source} does not map it`;
}

/** profile.fixtures.<name> (or sepa.<Status>) naming an existing user, else the reason. */
function missingFixture(name: string, profile: ResolvedProfile): string | undefined {
  const f = profile.fixtures;
  const have = name.startsWith('sepa.') ? f?.sepa?.[name.slice(5)] : (f as Record<string, { user_id?: string } | undefined> | undefined)?.[name]?.user_id;
  return have ? undefined : `needs profile.fixtures.${name} (an existing user in that state)`;
}

export function unmetNeed(
  need: Need,
  profile: ResolvedProfile,
  model: Model | undefined,
  services: RunServices,
  problems: ServiceProblems = {},
): string | undefined {
  switch (need) {
    case 'control':
      return services.control ? undefined : NO_CONTROL;
    case 'pci':
      return profile.pci_url ? undefined : 'needs the card-tokenization environment: profile.pci_url is not set';
    case 's2s_signing_secret':
      return profile.s2s_signing_secret ? undefined : 'needs to forge S2S tokens: profile.s2s_signing_secret is not set';
    case 'user_token_signing_secret':
      return profile.user_token_signing_secret ? undefined : 'needs to forge user tokens: profile.user_token_signing_secret is not set';
    case 'idp':
      if (!profile.idp?.enabled) return 'needs the identity-provider exchange: profile.idp.enabled is not true';
      return services.idp ? undefined : `the test identity provider is not available: ${problems.idp ?? 'it was not started'}`;
    case 'idp_tokens':
      if (!profile.idp?.enabled) return 'needs the identity-provider exchange: profile.idp.enabled is not true';
      if (services.idp || profile.idp.tokens) return undefined;
      return `needs provider tokens the target accepts: profile.idp.tokens (real provider tokens), or ${problems.idp ?? 'a test identity provider the target trusts'}`;
    case 'webhooks':
      return services.webhooks ? undefined : `the webhook receiver is not available: ${problems.webhooks ?? 'it was not started'}`;
    case 'special_client:no_secret':
      return profile.special_clients?.no_secret ? undefined : 'needs a client with no secret configured: profile.special_clients.no_secret is not set';
    case 'special_client:company_type_restricted':
      return profile.special_clients?.company_type_restricted
        ? undefined
        : 'needs a client of a company type that may not use client credentials: profile.special_clients.company_type_restricted is not set';
    case 'two_clients':
      return profile.clients.length >= 2 ? undefined : `needs two clients of different companies: profile.clients has ${profile.clients.length}`;
    default: {
      if (need.includes('|')) {
        const reasons = need.split('|').map((alt) => unmetNeed(alt as Need, profile, model, services, problems));
        return reasons.some((r) => r === undefined) ? undefined : reasons.join('; or ');
      }
      if (need.startsWith('fixture:')) return missingFixture(need.slice('fixture:'.length), profile);
      if (need.startsWith('control:')) return missingControlOperation(need.slice('control:'.length), services);
      if (need.startsWith('operation:')) {
        const op = need.slice('operation:'.length);
        if (profile.operations[op]) return undefined;
        const known = model?.operations.get(op as OperationId); // any string may come from a check's needs; unknown ones are undefined
        if (known && !known.pathUnspecified) return undefined;
        return `profile.operations.${op} not given: the spec does not show its path`;
      }
      return `unknown need ${JSON.stringify(need)}`;
    }
  }
}

/**
 * First unmet need of a check, as a skip reason. When it is a control operation, every control
 * operation the check lacks is named at once, so one run tells the user the whole mapping to add.
 */
export function skipReasonFor(check: Check, profile: ResolvedProfile, model: Model | undefined, services: RunServices, problems?: ServiceProblems): string | undefined {
  for (const need of check.needs ?? []) {
    const reason = unmetNeed(need, profile, model, services, problems);
    if (!reason) continue;
    if (!need.startsWith('control:') || need.includes('|')) return reason;
    const missing = (check.needs ?? []).filter((n) => n.startsWith('control:') && !n.includes('|') && missingControlOperation(n.slice(8), services)).map((n) => n.slice(8));
    return missing.length === 1 ? reason : reason.replace(`operation ${missing[0]}`, `operations ${missing.join(', ')}`).replace('does not map it', 'does not map them');
  }
  return undefined;
}
