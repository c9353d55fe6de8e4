// Model-based checks: fast-check command sequences over the section 3 state machines, each covering
// several rules at once (so they are registered here, not generated one per rule). Their rule lists
// come from the same module, and every id is checked against the model when the checks run.

import type { Check } from '../../src/checks/types.ts';
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
];
