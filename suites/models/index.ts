// Model-based checks: fast-check command sequences over the section 3 state machines, each covering
// several rules at once (so they are registered here, not generated one per rule). Their rule lists
// come from the same module, and every id is checked against the model when the checks run. Also
// registered here: checks of behaviour under concurrency (recipients.ts), which no single rule's
// driver sequence exercises, and second checks of section 8 limits whose rule has its generated check
// (limits.ts).

import type { Check } from '../../src/checks/types.ts';
import { limitChecks } from './limits.ts';
import { concurrentRecipientsRun } from './recipients.ts';
import { SEPA_MODEL_RULES, THREE_DS_MODEL_RULES, sepaModelRun, threeDsModelRun } from './state-models.ts';

export const modelChecks: Check[] = [
  {
    id: 'states.sepa.model',
    title: 'SepaAccount capability, model-based: generated sequences of direct activation, init, complete, provider completion, status and Primary wallet changes follow section 3',
    area: 'states',
    section: '3',
    rules: SEPA_MODEL_RULES,
    safe: false,
    needs: ['control:setSepaCapabilityStatus', 'control:setPrimaryWallet', 'control:completeSepaActivation'],
    run: sepaModelRun,
  },
  {
    id: 'states.3ds.model',
    title: '3DS challenges, model-based: generated sequences of create, approve, decline (own, other user\'s, unknown), list and server clock moves follow section 3, section 7 other rule 1 and the 5-minute window',
    area: 'states',
    section: '3',
    rules: THREE_DS_MODEL_RULES,
    safe: false,
    exclusive: true,
    needs: ['control:create3dsChallenge', 'control:advanceClock', 'operation:approve3ds', 'operation:decline3ds'],
    run: threeDsModelRun,
  },
  {
    id: 'transfers.recipients.concurrent',
    title: 'Push to Card recipients created at the same time all survive: 2 batches of 6 concurrent Card recipient creations, then a transfer estimate to each payment_details.id',
    area: 'transfers',
    section: '4.rule3',
    rules: ['FLOW-PUSH-TO-CARD'],
    safe: false,
    needs: ['pci'],
    run: concurrentRecipientsRun,
  },
  ...limitChecks,
];
