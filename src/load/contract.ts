// Load response contracts: what every answer of some kind must carry while the target is under load,
// registered here by id. A scenario lists the ids it holds its answers to (mix.ts `contracts`); the
// run reads those answers' bodies (answers.ts), tallies each contract (contract-run.ts), and the
// result, verdict, console, HTML page and merge show every contract the same way, so a new contract
// is this entry, its id on a scenario and its breaking target (contract.test.ts `BREAKS`).

import type { Model, RuleId } from '../model/index.ts';

/** One answer as a contract reads it (the body as received, headers by lower-case name). */
export interface ContractAnswer {
  op: string;
  status: number;
  header(name: string): string | undefined;
  body: string;
}

/** A contract compiled for one run: what a conforming answer carries (for the report), and the judge of one answer. */
export interface CompiledContract {
  expected: string;
  /** The problem with one answer, or undefined when it holds. */
  check(a: ContractAnswer): string | undefined;
}

export interface LoadContract {
  /** The spec rule the contract holds answers to (the report names it; a misspelt id fails tsc). */
  rule: RuleId;
  /** One line for the report. */
  title: string;
  /** The answers it reads, asked at each answer's headers: keep it to a comparison. */
  reads(status: number, op: string): boolean;
  /** Facts from the model, looked up once per run. */
  compile(model: Model): CompiledContract;
  /** A count shown beside the contract (answers with a property the spec leaves free). */
  tally?: { label: string; counts(a: ContractAnswer): boolean };
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The section 7 category of the 429 row (ERR-RATE-LIMITED), else the category section 7 gives 429. */
export function category429(model: Model): string {
  return model.errorRule('ERR-RATE-LIMITED').category ?? model.categoryFor(429) ?? 'CategoryTransientFailure';
}

/** The section 7/8 429 contract for one response; returns the problem or undefined. */
export function check429(body: string, expectedCategory: string): string | undefined {
  const b = parsed(body) as { error_category?: { category?: unknown; http_status_code?: unknown } } | null | undefined;
  if (b === undefined) return `429 body is not JSON: ${JSON.stringify(body.slice(0, 80))}`;
  const cat = b?.error_category;
  if (!cat || typeof cat !== 'object') return '429 body has no error_category object';
  if (cat.category !== expectedCategory) return `error_category.category is ${JSON.stringify(cat.category)}, expected ${expectedCategory}`;
  if (cat.http_status_code !== 429) return `error_category.http_status_code is ${JSON.stringify(cat.http_status_code)}, expected 429`;
  return undefined;
}

export const LOAD_CONTRACTS = {
  '429-shape': {
    rule: 'ERR-RATE-LIMITED',
    title: 'every 429 carries the section 7 body with the 429 category and http_status_code 429 (sections 7, 8)',
    reads: (status) => status === 429,
    compile(model) {
      const expected = category429(model);
      return { expected: `error_category ${expected} / 429`, check: (a) => check429(a.body, expected) };
    },
    tally: { label: 'Retry-After', counts: (a) => a.header('retry-after') !== undefined },
  },
} satisfies Record<string, LoadContract>;

/** A registered contract's id: what a scenario lists (a misspelt id fails tsc). */
export type LoadContractId = keyof typeof LOAD_CONTRACTS;

export const isLoadContractId = (s: string): s is LoadContractId => Object.hasOwn(LOAD_CONTRACTS, s);
