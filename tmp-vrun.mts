import { loadModel } from './src/model/index.ts';
import { runVariant } from './src/mutants/run-variant.ts';
import { variantsById } from './src/mutants/registry.ts';
import { creditKills } from './src/mutants/scoring.ts';
import { loadChecks } from './suites/index.ts';
const model = await loadModel();
const checks = await loadChecks();
const ids = process.argv.slice(2);
for (const v of variantsById(ids)) {
  const t = Date.now();
  const raw = await runVariant(v, { checks, model, seed: 7, timeoutBudgetMs: 10_000, checkConcurrency: 4, profile: 'full' });
  const kill = v.kind === 'faulty' ? creditKills(raw.failing, raw.breaks, new Set()).caughtBy : [];
  console.log(JSON.stringify({ id: v.id, kind: v.kind, s: Math.round((Date.now() - t) / 1000), error: raw.error, failing: raw.failing.map((f: any) => [f.checkId, f.rules, f.message.slice(0, 300)]), caughtBy: kill }));
}
process.exit(0);
