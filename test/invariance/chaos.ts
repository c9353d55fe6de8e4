// The proxy hooks of a condition: latency and 429s on every API answer, the test-control API
// included (its answers are answers too), drawn from a seeded generator so a condition is the same
// condition on every run. The 429 is answered in place of the request, which never reaches the
// reference: a rate limiter refuses before acting, so a write it refused did not happen.

import type { ProxyHooks } from '../../src/mutants/proxy.ts';
import { errorBody } from '../../src/mutants/transforms.ts';
import { seededRandom } from '../../src/runner/seed.ts';
import type { Condition } from './conditions.ts';


export interface ChaosTally {
  answers: number;
  refused429: number;
  heldMs: number;
}

export function chaosHooks(condition: Condition, seed: number, tally: ChaosTally): ProxyHooks | undefined {
  if (condition.latencyMaxMs === 0 && condition.share429 === 0) return undefined;
  const latency = seededRandom(seed);
  const refuse = seededRandom(seed ^ 0x5bd1e995);
  return {
    delayMs: () => {
      tally.answers++;
      const ms = Math.floor(latency() ** condition.latencyShape * condition.latencyMaxMs);
      tally.heldMs += ms;
      return ms;
    },
    request: (req) => {
      if (condition.operations429 && !(req.operationId && condition.operations429.includes(req.operationId))) return;
      if (condition.share429 === 0 || refuse() >= condition.share429) return;
      tally.refused429++;
      const body = errorBody(429, 'ErrorRateLimited', 'Too many requests');
      return { status: 429, headers: { 'content-type': 'application/json', 'retry-after': String(condition.retryAfterS) }, body: JSON.stringify(body), json: body };
    },
  };
}
