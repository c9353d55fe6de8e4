// Which answers of a load run keep their body, and who reads it: the scenarios' contracts, the
// judge (every answer, or the sampled share) and a scenario that records its creations (consistency).
// One flag word per answer, so a body is read once whatever the number of readers.

import type { ContractRun } from './contract-run.ts';
import { headerIn } from './dispatch.ts';
import type { EngineOptions, EngineRequest } from './engine-types.ts';
import type { LoadJudge } from './judge.ts';

const CONTRACT = 1;
const JUDGE = 2;
const OBSERVE = 4;

export interface AnswerReaders {
  /** The scenarios' contracts (contract.ts). */
  contracts?: ContractRun;
  judge?: LoadJudge;
  /** 2xx answers of these operations go to `observe` (with the request that produced them). */
  observeOps?: Set<string>;
  observe?: (req: EngineRequest, status: number, body: string) => void;
}

export function answerHooks(a: AnswerReaders): Pick<EngineOptions, 'bodyFor' | 'onBody'> {
  const { contracts, judge, observeOps, observe } = a;
  if (!contracts && !judge && !observe) return {};
  return {
    bodyFor: (s, op) => (contracts?.wants(s, op) ? CONTRACT : 0) | (judge?.wants() ? JUDGE : 0) | (observe && s >= 200 && s < 300 && observeOps?.has(op) ? OBSERVE : 0),
    onBody: (req, s, head, body, flags) => {
      if (flags & CONTRACT) contracts!.read({ op: req.op, status: s, header: (name) => headerIn(head, name), body });
      if (flags & JUDGE) judge!.judgeAnswer(req, s, headerIn(head, 'content-type'), body);
      if (flags & OBSERVE) observe!(req, s, body);
    },
  };
}
