// The "adding a load response contract" recipe of docs/extend-the-toolkit.md as edits a test can apply
// to a scratch copy: the contract registered in src/load/contract.ts, its id on the token-burst
// scenario, and the target that breaks it in src/load/contract.test.ts. recipes.test.ts applies them
// and runs what the guide says to run.

import { insertAt, replaceIn } from './scratch.ts';

export const CONTRACT_ID = 'token-validity';
export const CONTRACT_RULE = 'LIMIT-S2S-TOKEN-VALIDITY';

/** Step 1 (contract): the entry in LOAD_CONTRACTS, after the 429 contract. */
export const addContract = (dir: string) =>
  insertAt(dir, 'src/load/contract.ts', '} satisfies Record<string, LoadContract>;', `  '${CONTRACT_ID}': {
    rule: '${CONTRACT_RULE}',
    title: 'every token answer under load carries expires_at about now + the S2S token validity (section 8)',
    reads: (status, op) => status === 200 && op === 'createToken',
    compile(model) {
      const validity = model.limits.s2s_token_validity?.value ?? 0;
      // An answer may be read as late as the request timeout after the target stamped it.
      const slack = model.requestTimeoutMs() / 1000 + 5;
      return {
        expected: \`expires_at now + \${validity} s (within \${slack} s)\`,
        check(a) {
          const at = (parsed(a.body) as { expires_at?: unknown } | undefined)?.expires_at;
          if (typeof at !== 'number') return \`expires_at is \${JSON.stringify(at)}, not a number\`;
          const off = Math.round(at - Date.now() / 1000 - validity);
          return Math.abs(off) <= slack ? undefined : \`expires_at \${at} is \${off} s off now + \${validity} s\`;
        },
      };
    },
  },
`, 'before');

/** Step 2 (scenario): its id in the token-burst scenario's contracts. */
export const listOnScenario = (dir: string) => replaceIn(dir, 'src/load/scenarios.ts', "contracts: ['429-shape'],", `contracts: ['429-shape', '${CONTRACT_ID}'],`);

/** Step 3 (proof): a target that breaks it, in BREAKS (tokens that live an hour). */
export const addBreakingTarget = (dir: string) =>
  insertAt(dir, 'src/load/contract.test.ts', "} satisfies Record<LoadContractId, Omit<StallOptions, 'delayFor'>>;", `  '${CONTRACT_ID}': { tokenTtlSec: 3600 },\n`, 'before');
