// results.json: the machine-readable run. No secrets: exchanges were masked by the client, the
// target URL loses any userinfo, and the profile itself is never written.

import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { RunCollector } from './collect.ts';
import { requestCosts } from './cost.ts';
import { FileReporter } from './file-reporter.ts';
import { RESULTS_KIND, RESULTS_VERSION } from '../baseline/results-file.ts';

/** Format of results.json: spec/schemas/results.schema.json. Bump RESULTS_VERSION on any breaking change. */
export function buildResults(c: RunCollector): object {
  const { started, summary, rules, checks, finishedAt, rootCauses, diff, expected, exit } = c.run;
  return {
    kind: RESULTS_KIND,
    version: RESULTS_VERSION,
    tool: { name: TOOL_NAME, version: started?.toolVersion ?? TOOL_VERSION },
    runId: started?.runId,
    seed: started?.seed,
    target: { name: started?.targetName, base_url: started?.target },
    ...(started?.shard ? { shard: started.shard } : {}),
    safe: started?.safe,
    started: started?.startedAt,
    finished: finishedAt,
    summary,
    rootCauses,
    checks,
    rules,
    costs: requestCosts(checks),
    ...(diff ? { diff } : {}),
    ...(expected ? { expected } : {}),
    ...(exit ? { exit } : {}),
  };
}

export class JsonReporter extends FileReporter {
  constructor(path: string) {
    super(path, (collected) => `${JSON.stringify(buildResults(collected), null, 2)}\n`);
  }
}
