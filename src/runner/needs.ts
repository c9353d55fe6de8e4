// Needs: what a check requires of the target. An unmet need skips the check with a reason that names
// the profile field to set, so the report tells the user how to get more coverage.

import type { Check, Need, RunServices } from '../checks/types.ts';
import type { Model, OperationId } from '../model/types.ts';
import type { ResolvedProfile } from '../profile/types.ts';

export const NO_CONTROL = 'needs the test-control API: profile.control_url is not set';

export interface ServiceProblems {
  idp?: string;
  webhooks?: string;
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
      return profile.control_url ? undefined : NO_CONTROL;
    case 'pci':
      return profile.pci_url ? undefined : 'needs the card-tokenization environment: profile.pci_url is not set';
    case 's2s_signing_secret':
      return profile.s2s_signing_secret ? undefined : 'needs to forge S2S tokens: profile.s2s_signing_secret is not set';
    case 'user_token_signing_secret':
      return profile.user_token_signing_secret ? undefined : 'needs to forge user tokens: profile.user_token_signing_secret is not set';
    case 'idp':
      if (!profile.idp?.enabled) return 'needs the identity-provider exchange: profile.idp.enabled is not true';
      if (!profile.control_url) return `${NO_CONTROL} (needed to register the test identity provider)`;
      return services.idp ? undefined : `the test identity provider is not available: ${problems.idp ?? 'it was not started'}`;
    case 'webhooks':
      if (!profile.control_url) return `${NO_CONTROL} (needed to register the webhook receiver)`;
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

/** First unmet need of a check, as a skip reason. */
export function skipReasonFor(check: Check, profile: ResolvedProfile, model: Model | undefined, services: RunServices, problems?: ServiceProblems): string | undefined {
  for (const need of check.needs ?? []) {
    const reason = unmetNeed(need, profile, model, services, problems);
    if (reason) return reason;
  }
  return undefined;
}
