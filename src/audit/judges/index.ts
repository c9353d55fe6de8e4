// Every client rule of spec/rules/client.yaml and the judge that covers it; null for a rule the model
// marks untestable (judges.test.ts holds the two lists equal). A new rule fails tsc here until judged.

import type { ClientRuleId } from '../../model/types.ts';
import { retryAfter, tokenBackoff } from './backoff.ts';
import { panPciOnly } from './card-data.ts';
import type { Judge } from './context.ts';
import { aliasPairMatch, chainString, preferredNames } from './fields.ts';
import { chainHeader, oneIdentityHeader, walletHeaderEoa } from './headers.ts';
import { requestTimeout } from './timeout.ts';
import { refreshBuffer, tokenCache } from './tokens.ts';
import { webhookAccept } from './webhooks.ts';

export type { Judge, JudgeContext } from './context.ts';
export { cardNumbersIn } from './card-data.ts';

export const JUDGES = {
  'CLIENT-TOKEN-BACKOFF': tokenBackoff,
  'CLIENT-RETRY-AFTER': retryAfter,
  'CLIENT-TOKEN-CACHE': tokenCache,
  'CLIENT-TOKEN-REFRESH-BUFFER': refreshBuffer,
  'CLIENT-REQUEST-TIMEOUT': requestTimeout,
  'CLIENT-CHAIN-HEADER': chainHeader,
  'CLIENT-ONE-IDENTITY-HEADER': oneIdentityHeader,
  'CLIENT-WALLET-HEADER-EOA': walletHeaderEoa,
  'CLIENT-PREFERRED-NAMES': preferredNames,
  'CLIENT-ALIAS-PAIR-MATCH': aliasPairMatch,
  'CLIENT-PAN-PCI-ONLY': panPciOnly,
  'CLIENT-CHAIN-STRING': chainString,
  'CLIENT-WEBHOOK-ACCEPT': webhookAccept,
  'CLIENT-TRANSPORT-TLS': null,
} satisfies Record<ClientRuleId, Judge | null>;
