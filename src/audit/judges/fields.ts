// Request fields: preferred names over deprecated aliases (section 9), never a mismatching old/new
// pair (section 4 rule 4), and chain as a numeric string (section 4 rule 1). Alias pairs come from the
// request aliases of spec/rules/aliases.yaml; the chain pattern from the operation's request schema.

import type { Exchange } from '../types.ts';
import { cite, notExercised, seqs, type Judge, type JudgeContext, type JudgeGroup } from './context.ts';

const objectBody = (e: Exchange): Record<string, unknown> | undefined =>
  e.body && typeof e.body === 'object' && !Array.isArray(e.body) ? (e.body as Record<string, unknown>) : undefined;

const same = (a: unknown, b: unknown) => (typeof a === 'string' && typeof b === 'string' ? a.toLowerCase() === b.toLowerCase() : JSON.stringify(a) === JSON.stringify(b));

/** Every (exchange, alias rule) where the request is one the alias applies to and has a body. */
function aliasUses(ctx: JudgeContext) {
  const rules = ctx.model.aliases.filter((r) => r.direction === 'request');
  const out: { ex: Exchange; old?: unknown; new?: unknown; hasOld: boolean; hasNew: boolean; pair: string }[] = [];
  for (const ex of ctx.exchanges) {
    const b = objectBody(ex);
    if (!b || !ex.operationId) continue;
    for (const r of rules) {
      if (!r.operations.includes(ex.operationId)) continue;
      const hasOld = r.old in b;
      const hasNew = r.new in b;
      if (hasOld || hasNew) out.push({ ex, old: b[r.old], new: b[r.new], hasOld, hasNew, pair: `${r.new}/${r.old}` });
    }
  }
  return out;
}

export const preferredNames: Judge = (ctx) => {
  const uses = aliasUses(ctx);
  if (uses.length === 0) return notExercised('the client sent no request field that has a deprecated alias');
  const oldOnly = uses.filter((u) => u.hasOld && !u.hasNew);
  if (oldOnly.length === 0) return { status: 'pass', message: `${uses.length} request field(s) with a deprecated alias used the preferred name`, exchanges: seqs(uses.map((u) => u.ex)) };
  const pairs = [...new Set(oldOnly.map((u) => u.pair))].join(', ');
  return { status: 'fail', message: `${oldOnly.length} request(s) (${cite(seqs(oldOnly.map((u) => u.ex)))}) used only the deprecated name (preferred/deprecated: ${pairs}); accepted by the spec, but the preferred name is the one to send`, exchanges: seqs(oldOnly.map((u) => u.ex)) };
};

export const aliasPairMatch: Judge = (ctx) => {
  const both = aliasUses(ctx).filter((u) => u.hasOld && u.hasNew);
  if (both.length === 0) return notExercised('the client never sent a preferred name together with its deprecated alias');
  const mismatch = both.filter((u) => !same(u.old, u.new));
  if (mismatch.length === 0) return { status: 'pass', message: `${both.length} request(s) sent both names of a pair with the same value`, exchanges: seqs(both.map((u) => u.ex)) };
  return { status: 'fail', message: `${mismatch.length} request(s) (${cite(seqs(mismatch.map((u) => u.ex)))}) sent a preferred name and its deprecated alias with different values (${[...new Set(mismatch.map((u) => u.pair))].join(', ')})`, exchanges: seqs(mismatch.map((u) => u.ex)) };
};

export const chainString: Judge = (ctx) => {
  const field = ctx.rule.facts.field;
  const judged = ctx.exchanges.filter((e) => e.operationId && ctx.rule.operations.includes(e.operationId) && objectBody(e) && field in objectBody(e)!);
  if (judged.length === 0) return notExercised(`the client made no call carrying ${field} (${ctx.rule.operations.join(', ')})`);
  const wrong = judged.filter((e) => {
    const schema = ctx.model.operation(e.operationId!).requestSchema?.properties?.[field];
    const v = objectBody(e)![field];
    return typeof v !== 'string' || (typeof schema?.pattern === 'string' && !new RegExp(schema.pattern).test(v));
  });
  if (wrong.length === 0) return { status: 'pass', message: `${judged.length} call(s) sent ${field} as a numeric string`, exchanges: seqs(judged) };
  const shown = wrong.slice(0, 3).map((e) => `#${e.seq} ${field}: ${JSON.stringify(objectBody(e)![field])}`).join('; ');
  return { status: 'fail', message: `${wrong.length} call(s) did not send ${field} as a numeric string (${shown})`, exchanges: seqs(wrong) };
};

/** The client rules this file judges, by id (index.ts joins every file's group into JUDGES). */
export const FIELD_JUDGES = {
  'CLIENT-PREFERRED-NAMES': preferredNames,
  'CLIENT-ALIAS-PAIR-MATCH': aliasPairMatch,
  'CLIENT-CHAIN-STRING': chainString,
} satisfies JudgeGroup;
