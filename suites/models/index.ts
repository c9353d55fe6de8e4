// Checks of several rules at once, registered by check id: fast-check command sequences over the
// section 3 state machines (sepa-model.ts, three-ds-model.ts), behaviour under concurrency that no single rule's driver
// sequence exercises (recipients.ts), and second checks of section 8 limits whose rule has its
// per-rule check (suites/drivers/limits-*.ts). The generator (generators/suites.ts) renders each into
// suites/generated/<area>.ts like a per-rule check: area from its first rule (spec/placement.yaml),
// section from that rule, title rendered from the model.

import type { MultiRuleDrivers } from '../drivers/driver.ts';
import { s2sTokenLifetime } from '../drivers/limits-clock.ts';
import { rateLimitSplit } from '../drivers/limits-rate.ts';
import { concurrentRecipientsRun } from './recipients.ts';
import { SEPA_MODEL_RULES, sepaModelRun } from './sepa-model.ts';
import { THREE_DS_MODEL_RULES, threeDsModelRun } from './three-ds-model.ts';

export const multiRuleDrivers: MultiRuleDrivers = {
  'states.sepa.model': {
    title: 'SepaAccount capability, model-based: generated sequences of direct activation, init, complete, provider completion, status and Primary wallet changes follow section 3',
    rules: SEPA_MODEL_RULES,
    safe: false,
    needs: ['control:setSepaCapabilityStatus', 'control:setPrimaryWallet', 'control:completeSepaActivation'],
    run: sepaModelRun,
  },
  'states.3ds.model': {
    title: '3DS challenges, model-based: generated sequences of create, approve, decline (own, other user\'s, unknown), list and server clock moves follow section 3, section 7 other rule 1 and the 5-minute window',
    rules: THREE_DS_MODEL_RULES,
    safe: false,
    exclusive: true,
    needs: ['control:create3dsChallenge', 'control:advanceClock', 'operation:approve3ds', 'operation:decline3ds'],
    run: threeDsModelRun,
  },
  'transfers.recipients.concurrent': {
    title: 'Push to Card recipients created at the same time all survive: 2 batches of 6 concurrent Card recipient creations, then a transfer estimate to each payment_details.id',
    rules: ['FLOW-PUSH-TO-CARD'],
    safe: false,
    needs: ['pci'],
    run: concurrentRecipientsRun,
  },
  'limits.s2s.token-lifetime': { ...s2sTokenLifetime, rules: ['LIMIT-S2S-TOKEN-VALIDITY', 'ERR-S2S-TOKEN-EXPIRED'] },
  'limits.token.rate-limit-split': { ...rateLimitSplit, rules: ['LIMIT-TOKEN-RATE-LIMIT'] },
};
