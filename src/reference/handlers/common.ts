// What every handler module shares: the handler signature, the success reply, the caller's user.

import type { BodyMode, Ctx, Reply } from '../http.ts';
import type { RefState } from '../state/index.ts';
import type { User } from '../state/store.ts';

/** A section 4 (or control) operation's behaviour. Authentication already ran; ctx.body is parsed. */
export type Handler = (ctx: Ctx, st: RefState) => Reply | Promise<Reply>;

/** A handler with the reference's request-body reading where it differs from the model's (see routes.ts). */
export interface HandlerSpec {
  run: Handler;
  /** Overrides the body mode derived from the operation (e.g. the token endpoint also reads form bodies). */
  body?: BodyMode;
}

/** All success statuses are 200 (the spec shows none). */
export const ok = (body: unknown): Reply => ({ status: 200, body });

/** The user of a user call (set by authentication). */
export const userOf = (ctx: Ctx): User => ctx.user as User;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The values a request schema's enum allows for `field` of operation `op` (model-held; e.g. account_type). */
export function enumOf(st: RefState, op: Parameters<RefState['model']['operation']>[0], field: string): string[] {
  const e = (st.model.operation(op).requestSchema as { properties?: Record<string, { enum?: unknown[] }> } | undefined)?.properties?.[field]?.enum;
  if (!Array.isArray(e) || e.length === 0) throw new Error(`spec/openapi.yaml: ${op} request field ${field} has no enum`);
  return e.map(String);
}
