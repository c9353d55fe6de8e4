// Section 5 headers of the client's calls: the chain header where the spec requires it, exactly one
// identity header on user calls made with an S2S token, and the EOA (never a Smart Wallet) in the
// wallet header. Which operation needs what comes from spec/openapi.yaml (parameters, x-user-scoped).

import type { Exchange } from '../types.ts';
import { cite, headerOf, notExercised, seqs, type Judge, type JudgeGroup } from './context.ts';

export const chainHeader: Judge = (ctx) => {
  const name = ctx.rule.facts.header;
  const needs = (e: Exchange) => !!e.operationId && ctx.model.operation(e.operationId).parameters.some((p) => p.in === 'header' && p.required && p.name.toLowerCase() === name.toLowerCase());
  const judged = ctx.exchanges.filter(needs);
  if (judged.length === 0) return notExercised(`the client made no call the spec requires ${name} on`);
  const missing = judged.filter((e) => headerOf(e, name) === undefined);
  const notNumeric = judged.filter((e) => { const v = headerOf(e, name); return v !== undefined && !/^[0-9]+$/.test(v.trim()); });
  if (missing.length === 0 && notNumeric.length === 0) return { status: 'pass', message: `${judged.length} call(s) needing ${name} carried a numeric one`, exchanges: seqs(judged) };
  const parts = [missing.length ? `${missing.length} without ${name} (${cite(seqs(missing))})` : '', notNumeric.length ? `${notNumeric.length} with a non-numeric value (${cite(seqs(notNumeric))})` : ''].filter(Boolean);
  return { status: 'fail', message: `of ${judged.length} call(s) the spec requires ${name} on, ${parts.join(' and ')}`, exchanges: seqs([...missing, ...notNumeric]) };
};

export const oneIdentityHeader: Judge = (ctx) => {
  const names = ctx.model.auth.identity_headers;
  const judged = ctx.exchanges.filter((e) => e.token?.kind === 's2s' && !!e.operationId && ctx.model.operation(e.operationId).userScoped);
  if (judged.length === 0) return notExercised('the client made no user call with an S2S token');
  const wrong = judged.filter((e) => names.filter((h) => headerOf(e, h) !== undefined).length !== 1);
  if (wrong.length === 0) return { status: 'pass', message: `${judged.length} user call(s) with an S2S token carried exactly one of ${names.join(', ')}`, exchanges: seqs(judged) };
  const detail = wrong.slice(0, 5).map((e) => `#${e.seq} ${names.filter((h) => headerOf(e, h) !== undefined).join(' + ') || 'none'}`).join('; ');
  return { status: 'fail', message: `${wrong.length} user call(s) with an S2S token did not carry exactly one identity header (${detail})`, exchanges: seqs(wrong) };
};

/** Values of `field` anywhere in a JSON value (bounded depth). */
function valuesOf(v: unknown, field: string, out: Set<string>, depth = 0): void {
  if (depth > 8 || v === null || typeof v !== 'object') return;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    if (k === field && typeof x === 'string') out.add(x.toLowerCase());
    else valuesOf(x, field, out, depth + 1);
  }
}

export const walletHeaderEoa: Judge = (ctx) => {
  const { header, smart_wallet_field: field } = ctx.rule.facts;
  // Smart Wallet addresses the API reported: wallet_address on the operations the rule lists (wallet
  // reads, bank init), where the name means the Smart Wallet (section 9 rule 4).
  const smart = new Set<string>();
  for (const e of ctx.exchanges) if (e.operationId && ctx.rule.operations.includes(e.operationId)) valuesOf(e.responseBody, field, smart);
  const judged = ctx.exchanges.filter((e) => headerOf(e, header) !== undefined);
  if (judged.length === 0) return notExercised(`the client never sent ${header}`);
  const wrong = judged.filter((e) => smart.has(headerOf(e, header)!.trim().toLowerCase()));
  if (wrong.length === 0) return { status: 'pass', message: `${judged.length} call(s) carried ${header}; none named one of the ${smart.size} Smart Wallet address(es) the API reported`, exchanges: seqs(judged) };
  return { status: 'fail', message: `${wrong.length} call(s) (${cite(seqs(wrong))}) sent a Smart Wallet address in ${header}; it carries the user's EOA (user_address)`, exchanges: seqs(wrong) };
};

/** The client rules this file judges, by id (index.ts joins every file's group into JUDGES). */
export const HEADER_JUDGES = {
  'CLIENT-CHAIN-HEADER': chainHeader,
  'CLIENT-ONE-IDENTITY-HEADER': oneIdentityHeader,
  'CLIENT-WALLET-HEADER-EOA': walletHeaderEoa,
} satisfies JudgeGroup;
