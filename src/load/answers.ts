// Which answers of a load run keep their body, and who reads it: the token-burst 429 contract, the
// judge (every answer, or the sampled share) and a scenario that records its creations (consistency).
// One flag word per answer, so a body is read once whatever the number of readers.

import { check429 } from './contract.ts';
import { headerIn } from './dispatch.ts';
import type { EngineOptions, EngineRequest } from './engine-types.ts';
import type { LoadJudge } from './judge.ts';
import type { ContractResult } from './types.ts';

const CONTRACT = 1;
const JUDGE = 2;
const OBSERVE = 4;

export interface AnswerReaders {
  /** The 429 contract (token-burst). */
  contract?: ContractResult;
  judge?: LoadJudge;
  /** 2xx answers of these operations go to `observe` (with the request that produced them). */
  observeOps?: Set<string>;
  observe?: (req: EngineRequest, status: number, body: string) => void;
}

export function answerHooks(a: AnswerReaders): Pick<EngineOptions, 'bodyFor' | 'onBody'> {
  const { contract, judge, observeOps, observe } = a;
  if (!contract && !judge && !observe) return {};
  return {
    bodyFor: (s, op) => (contract && s === 429 ? CONTRACT : 0) | (judge?.wants() ? JUDGE : 0) | (observe && s >= 200 && s < 300 && observeOps?.has(op) ? OBSERVE : 0),
    onBody: (req, s, head, body, flags) => {
      if (flags & CONTRACT && contract) {
        contract.checked++;
        if (headerIn(head, 'retry-after') !== undefined) contract.retry_after_present++;
        const problem = check429(body, contract.expected_category);
        if (problem) {
          contract.violations++;
          if (contract.samples.length < 5) contract.samples.push(problem);
        }
      }
      if (flags & JUDGE) judge!.judgeAnswer(req, s, headerIn(head, 'content-type'), body);
      if (flags & OBSERVE) observe!(req, s, body);
    },
  };
}
