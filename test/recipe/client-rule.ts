// The "adding a client rule" recipe of docs/extend-the-toolkit.md as edits a test can apply to a
// scratch copy: the rule in spec/rules/client.yaml, its judge registered in the headers group, the
// library clients' expectation, and the sample client's faulty mode that breaks it. recipes.test.ts
// applies them and runs what the guide says to run.

import { insertAt } from './scratch.ts';

export const RULE_ID = 'CLIENT-AGNOSTIC-NO-IDENTITY';
export const MODE = 'identity-on-agnostic';

/** Step 1 (model): the rule, after its sibling identity-header rule. */
export const addRule = (dir: string) =>
  insertAt(dir, 'spec/rules/client.yaml', '  - id: CLIENT-WALLET-HEADER-EOA', `  - id: ${RULE_ID}
    section: "5"
    level: recommended
    quote: "User-agnostic endpoints (no user identity headers): ..."
    summary: "A call to a user-agnostic operation (x-auth s2s-agnostic) carries no user identity header"
    operations: []
`, 'before');

/** Step 3 (judge): the judge in src/audit/judges/headers.ts, registered in its file's group. */
export async function addJudge(dir: string): Promise<void> {
  const file = 'src/audit/judges/headers.ts';
  await insertAt(dir, file, '/** Values of `field` anywhere in a JSON value', `export const agnosticNoIdentity: Judge = (ctx) => {
  const names = ctx.model.auth.identity_headers;
  const judged = ctx.exchanges.filter((e) => !!e.operationId && ctx.model.operation(e.operationId).auth.includes('s2s-agnostic'));
  if (judged.length === 0) return notExercised('the client made no call to a user-agnostic operation');
  const wrong = judged.filter((e) => names.some((h) => headerOf(e, h) !== undefined));
  if (wrong.length === 0) return { status: 'pass', message: \`\${judged.length} call(s) to user-agnostic operations carried no identity header\`, exchanges: seqs(judged) };
  return { status: 'fail', message: \`\${wrong.length} call(s) to user-agnostic operations (\${cite(seqs(wrong))}) carried a user identity header (\${names.join(', ')})\`, exchanges: seqs(wrong) };
};

`, 'before');
  await insertAt(dir, file, "  'CLIENT-ONE-IDENTITY-HEADER': oneIdentityHeader,", `  '${RULE_ID}': agnosticNoIdentity,\n`, 'after');
}

/** Step 4 (library clients): what the applications' flow gives (src/audit/bank/libraries.ts FLOW). */
export const addLibraryExpectation = (dir: string) =>
  insertAt(dir, 'src/audit/bank/libraries.ts', "  'CLIENT-ONE-IDENTITY-HEADER': ['pass',", `  '${RULE_ID}': ['pass', 'the application sends no identity header on user-agnostic calls'],\n`, 'after');

/** Step 5 (proof): the faulty mode and its bend in src/audit/bank/modes.ts. */
export async function addFaultyMode(dir: string): Promise<void> {
  const file = 'src/audit/bank/modes.ts';
  await insertAt(dir, file, "  'two-identity-headers': 'CLIENT-ONE-IDENTITY-HEADER',", `  '${MODE}': '${RULE_ID}', // the wallet header on user-agnostic calls too\n`, 'after');
  await insertAt(dir, file, "  'no-chain-header': (c, m) => {", `  '${MODE}': (c, m) => {
    if (c.op.auth.includes('s2s-agnostic')) c.headers[m.auth.identity_headers[0]] = '0x00000000000000000000000000000000000000a1';
  },
`, 'before');
}
