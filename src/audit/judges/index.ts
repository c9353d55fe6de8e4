// Every client rule of spec/rules/client.yaml and the judge that covers it: each judges file registers
// its rules in its group (HEADER_JUDGES, ...), joined here; null for a rule the model marks untestable
// (judges.test.ts holds the two lists equal). A new testable rule fails tsc here until a group judges it.

import type { ClientRuleId } from '../../model/types.ts';
import { BACKOFF_JUDGES } from './backoff.ts';
import { CARD_DATA_JUDGES } from './card-data.ts';
import type { Judge } from './context.ts';
import { FIELD_JUDGES } from './fields.ts';
import { HEADER_JUDGES } from './headers.ts';
import { TIMEOUT_JUDGES } from './timeout.ts';
import { TOKEN_JUDGES } from './tokens.ts';
import { WEBHOOK_JUDGES } from './webhooks.ts';

export type { Judge, JudgeContext } from './context.ts';
export { cardNumbersIn } from './card-data.ts';

// Annotated, not `satisfies`: a rule no group judges is one error here, not one in every reader of JUDGES.
export const JUDGES: Readonly<Record<ClientRuleId, Judge | null>> = {
  ...BACKOFF_JUDGES,
  ...TOKEN_JUDGES,
  ...TIMEOUT_JUDGES,
  ...HEADER_JUDGES,
  ...FIELD_JUDGES,
  ...CARD_DATA_JUDGES,
  ...WEBHOOK_JUDGES,
  'CLIENT-TRANSPORT-TLS': null,
};
