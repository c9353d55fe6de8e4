// results.json: the machine-readable run. No secrets: exchanges were masked by the client, the
// target URL loses any userinfo, and the profile itself is never written.

import type { Reporter, RunEvent } from '../events/index.ts';
import { TOOL_NAME, TOOL_VERSION } from '../runner/version.ts';
import { RunCollector } from './collect.ts';
import { writeReport } from './files.ts';

export function buildResults(c: RunCollector): object {
  const { started, summary, rules, checks, finishedAt } = c.run;
  return {
    tool: TOOL_NAME,
    version: started?.toolVersion ?? TOOL_VERSION,
    seed: started?.seed,
    runId: started?.runId,
    target: { name: started?.targetName, base_url: started?.target },
    shard: started?.shard,
    safe: started?.safe,
    started: started?.startedAt,
    finished: finishedAt,
    summary,
    checks,
    rules,
  };
}

export class JsonReporter implements Reporter {
  private readonly collector = new RunCollector();
  constructor(private readonly path: string) {}
  onEvent(e: RunEvent): void {
    this.collector.onEvent(e);
  }
  async close(): Promise<void> {
    await writeReport(this.path, `${JSON.stringify(buildResults(this.collector), null, 2)}\n`);
  }
}
