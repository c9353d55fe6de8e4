// Expected failures: a reviewed list of checks allowed to fail (check id, reason, optional expiry,
// kind, owner and link). Every kind waives in `run`; `certify` takes no list at all, so no waiver,
// a muted one least of all, ever counts towards a certificate.
// Listed failures are reported but do not fail the run. The list cannot rot: an entry whose check now
// passes, an expired entry, or an unknown check id fails the run, naming the entry.

import type { ExpectedFailureEntry, ExpectedFailuresOutcome } from '../events/index.ts';
import { ExpectedFailuresError } from './errors.ts';
import { readInputFile, yamlLib } from '../input/index.ts';
import { describeErrors, SCHEMA_FILES, validatorFor } from './schemas.ts';

export interface ExpectedFailures {
  file: string;
  entries: ExpectedFailureEntry[];
}

/** Parses YAML or JSON text (JSON is YAML) against spec/schemas/expected-failures.schema.json. */
export function parseExpectedFailures(text: string, file: string): ExpectedFailures {
  let value: unknown;
  try {
    value = yamlLib().parse(text);
  } catch (err) {
    throw new ExpectedFailuresError(file, `is neither YAML nor JSON (${(err as Error).message.split('\n')[0]})`);
  }
  return expectedFailuresFrom(value, file);
}

/** The parsed list, checked against its schema, one entry per check, calendar dates. */
function expectedFailuresFrom(value: unknown, file: string): ExpectedFailures {
  const validate = validatorFor(SCHEMA_FILES.expectedFailures);
  if (!validate(value)) {
    throw new ExpectedFailuresError(file, `does not match spec/schemas/expected-failures.schema.json (entries of check, reason, optional expires YYYY-MM-DD, kind known|muted|accepted, owner, link): ${describeErrors(validate.errors)}`);
  }
  const entries = (Array.isArray(value) ? value : (value as { expected_failures: ExpectedFailureEntry[] }).expected_failures) as ExpectedFailureEntry[];
  const seen = new Set<string>();
  for (const e of entries) {
    if (seen.has(e.check)) throw new ExpectedFailuresError(file, `check ${e.check} is listed twice; keep one entry per check`);
    seen.add(e.check);
    if (e.expires && Number.isNaN(Date.parse(`${e.expires}T00:00:00Z`))) throw new ExpectedFailuresError(file, `${e.check}: expires ${e.expires} is not a calendar date`);
  }
  return { file, entries };
}

export async function loadExpectedFailures(path: string): Promise<ExpectedFailures> {
  const doc = await readInputFile(path, { what: 'expected-failures list', format: 'yaml', error: (f, _pointer, problem) => new ExpectedFailuresError(f, problem) });
  return expectedFailuresFrom(doc.value, path);
}

/** Today as YYYY-MM-DD in UTC (expiry dates are compared as strings). */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Applies the list to a run. `results` are the checks that ran; `knownChecks` every check id the tool
 * has (a check outside this shard or --check selection is known but not judged).
 */
export function applyExpectedFailures(
  list: ExpectedFailures,
  results: { checkId: string; verdict: string }[],
  knownChecks: Iterable<string>,
  today: string = utcDay(),
): ExpectedFailuresOutcome {
  const known = new Set(knownChecks);
  const byId = new Map(results.map((r) => [r.checkId, r]));
  const out: ExpectedFailuresOutcome = { file: list.file, waived: [], problems: [] };
  for (const e of list.entries) {
    if (!known.has(e.check)) {
      out.problems.push({ check: e.check, problem: 'unknown-check', message: `${e.check} is not a check of this tool (renamed or removed?): fix or delete the entry` });
      continue;
    }
    if (e.expires && today > e.expires) {
      const who = [e.owner ? `owner ${e.owner}` : '', e.link ? `link ${e.link}` : 'no link'].filter(Boolean).join(', ');
      out.problems.push({ check: e.check, problem: 'expired', message: `the ${e.kind ?? 'known'} entry for ${e.check} (${who}) expired on ${e.expires} (${e.reason}): fix the target or renew the entry` });
      continue;
    }
    const r = byId.get(e.check);
    if (!r) continue; // not run here (another shard, --check): nothing to judge
    if (r.verdict === 'fail' || r.verdict === 'blocked') out.waived.push({ check: e.check, reason: e.reason, verdict: r.verdict, kind: e.kind ?? 'known', ...(e.owner ? { owner: e.owner } : {}), ...(e.link ? { link: e.link } : {}) });
    else if (r.verdict === 'pass') out.problems.push({ check: e.check, problem: 'now-passes', message: `${e.check} now passes: delete its entry so a new failure is not waived` });
  }
  return out;
}
