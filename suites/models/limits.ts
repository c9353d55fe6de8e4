// Second checks of section 8 limit rules that already have their generated check: the server side of
// the S2S token validity (honoured for 48 h, then refused) and the per-IP / per-client split of the
// token rate limit. One rule, one id in spec/rules; these add checks to it rather than restating it.

import type { Check } from '../../src/checks/types.ts';
import type { RuleId } from '../../src/model/types.ts';
import { s2sTokenLifetime } from '../drivers/limits-clock.ts';
import { rateLimitSplit } from '../drivers/limits-rate.ts';
import type { Driver } from '../drivers/driver.ts';

const fromDriver = (id: string, rules: RuleId[], d: Driver): Check => ({
  id,
  title: d.title ?? id,
  area: 'limits',
  section: '8',
  rules,
  safe: d.safe,
  ...(d.exclusive ? { exclusive: true } : {}),
  needs: d.needs ?? [],
  run: (ctx) => d.run(ctx),
});

export const limitChecks: Check[] = [
  fromDriver('limits.s2s.token-lifetime', ['LIMIT-S2S-TOKEN-VALIDITY', 'ERR-S2S-TOKEN-EXPIRED'], s2sTokenLifetime),
  fromDriver('limits.token.rate-limit-split', ['LIMIT-TOKEN-RATE-LIMIT'], rateLimitSplit),
];
