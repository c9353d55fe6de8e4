// Section 7 rows tried on every operation they apply to, not only the one a row names. The
// operations come from the model:
// the row's own spec/rules operations plus every operation of the row's family (RowFamily: the
// identity-header rows, X-Chain-Id, the S2S token rows, the user-token rows), read from x-auth,
// x-user-scoped, x-mutates, x-moves-money and the header parameters of spec/openapi.yaml. fast-check
// picks the operation (weighted towards the operations a row was never tried on before, seeded by the
// check's seed, bounded by numRuns) after one run per operation as fast-check `examples`, so a fault on
// a single operation is always met; a failure names the operation.

import type { CreateBankAccountRequest } from '../../src/generated/api-types.ts';
import fc from 'fast-check';
import { checkProperty } from '../../src/checks/property.ts';
import { CheckFailure } from '../../src/checks/signals.ts';
import type { CheckContext, HttpResponse } from '../../src/checks/types.ts';
import { expectError } from '../../src/checks/assert.ts';
import type { ErrorRuleId, Operation, OperationId, RuleId } from '../../src/model/types.ts';
import { rnd } from './random.ts';
import { requestBody } from './templates.ts';
import { inBatches, PROBE_BATCH } from './batches.ts';
import { requiresChainHeader, ROW_FAMILY_APPLIES, type RowFamily } from '../../src/reach/index.ts';

export interface RowOperation {
  op: OperationId;
  /** Path parameters, where the operation has some (made-up ids: userTokenRoutes). */
  params?: Record<string, string>;
  /** The request body a successful call sends (so the row's fault is the only one), if any. */
  body?: Record<string, unknown>;
  /** fast-check weight: the row's own operations 1, the others (never tried before) 3. */
  weight: number;
  label: string;
}

/**
 * Bodies of the user-scoped writes whose request section 4 shows in full. A write whose body needs an
 * earlier step (a card_token, a signed challenge, an estimation) or whose payload is not shown is left
 * out: with an invalid body, which refusal comes first is not shown, so the row would not be the only fault.
 * The exception is a body the caller built from those steps (rowOperations `stepBodies`, e.g. the card
 * transfer estimate with the payment_details.id of a Card recipient: suites/drivers/row-steps.ts).
 */
const SHOWN_BODIES: Record<string, (ctx: CheckContext) => Record<string, unknown>> = {
  createVirtualCard: (ctx) => requestBody(ctx, 'createVirtualCard', { card_name: 'conform-row' }),
  createXrplAccount: (ctx) => requestBody(ctx, 'createXrplAccount', {}),
  getFullStatement: () => {
    const now = Math.floor(Date.now() / 1000);
    return { start: now - 86400, end: now };
  },
  // A type the model lists (typed by the generated request, so a typo fails tsc); Sepa is left out: its
  // path is state-dependent (section 3), so a refusal there could be the state's, not the row's.
  createBankAccount: () => ({ account_type: 'Ach' } satisfies CreateBankAccountRequest),
  // Section 4 shows the fx estimate request as destination_address; the profile's template adds the rest.
  estimateFx: (ctx) => requestBody(ctx, 'estimateFx', {}, { destination_address: rnd.address() }),
  // User-agnostic creation (section 4: email, country, user_address); a fresh user each time.
  createUserV1: () => ({ email: rnd.email(), country: 'DE', user_address: rnd.address() }),
  createUserV2: () => ({ email: rnd.email(), country: 'DE', user_address: rnd.address() }),
};

/** Request bodies built from earlier steps, by operationId (valid for the shared user of client 0). */
export type StepBodies = Partial<Record<string, Record<string, unknown>>>;

/** Which section 7 rows, and where each applies: one source with `rules --audit` (src/reach/governed.ts). */
export type { RowFamily };

/** The model lists X-Chain-Id as a required header of the operation (section 4/5; POST /api/v2/user and the config reads do not). */
export function requiresChain(ctx: CheckContext, op: Operation): boolean {
  return requiresChainHeader(ctx.model, op);
}

const label = (op: Operation) => `${op.method.toUpperCase()} ${op.pathUnspecified ? `<profile.operations.${op.operationId}>` : op.path} (${op.operationId})`;

/** An operation whose path is unknown here: not shown and not given by the profile. */
function pathless(ctx: CheckContext, op: Operation): boolean {
  return op.pathUnspecified && !ctx.profile.operations?.[op.operationId];
}

/**
 * Where a section 7 row of `family` applies (ROW_FAMILY_APPLIES), plus the row's own spec/rules
 * operations. Left out, so the row's fault is the only one of the request: money movers (a faulty
 * target must not move money), operations with path parameters (a made-up id could be refused first),
 * bodies that are not shown in full (see SHOWN_BODIES), and operations whose path is not shown unless
 * the profile gives it and the model lists all its query parameters as optional.
 */
export function rowOperations(ctx: CheckContext, ruleId: RuleId, family: RowFamily, stepBodies: StepBodies = {}): RowOperation[] {
  const own = new Set<string>(ctx.model.rule(ruleId).operations);
  const applies = (c: CheckContext, op: Operation) => ROW_FAMILY_APPLIES[family](c.model, op);
  const out: RowOperation[] = [];
  for (const op of ctx.model.operations.values()) {
    const isOwn = own.has(op.operationId);
    // Not an operation whose authentication the spec does not show (x-auth-unspecified): its x-auth is a
    // placeholder, and holding it to a section 7 credentials row would invent one (the profile's operation_auth says how it authenticates).
    if (!isOwn && (op.server !== 'api' || op.authUnspecified || !applies(ctx, op) || op.movesMoney || op.parameters.some((p) => p.in === 'path'))) continue;
    if (pathless(ctx, op)) continue;
    const get = op.method.toLowerCase() === 'get';
    // Under --safe only reads: a target that wrongly accepted a write without a user could act on it.
    if (ctx.safeMode && !get) continue;
    if (!isOwn && op.pathUnspecified) {
      const query = op.parameters.filter((p) => p.in === 'query');
      if (!get || query.length === 0 || query.some((p) => p.required)) continue;
    }
    const stepBody = stepBodies[op.operationId];
    const bodyOf = SHOWN_BODIES[op.operationId] ?? (stepBody ? () => stepBody : undefined);
    if (!isOwn && !get && !bodyOf && (op.hasRequestBody || op.mutates)) continue;
    out.push({ op: op.operationId, body: bodyOf?.(ctx), weight: isOwn ? 1 : 3, label: label(op) });
  }
  return out;
}

/**
 * Every operation that accepts a user token (x-auth user), one request each, for the walk of
 * AUTH-USER-TOKEN-USE (section 5 user token issuance step 4). Unlike rowOperations, operations with path
 * parameters (a made-up id) and writes whose body is not shown (an empty object) are kept: the walk judges
 * only that the token is not refused as a credential, and a 400 for a missing input passes (reading
 * every-user-route). Left out: an operation whose path is unknown here, one whose authentication the spec
 * does not show (its x-auth is a placeholder), and under --safe every write (x-mutates). A money mover
 * is sent an empty body (or none), so it names no transfer.
 */
export function userTokenRoutes(ctx: CheckContext): RowOperation[] {
  const out: RowOperation[] = [];
  for (const op of ctx.model.operations.values()) {
    if (op.server !== 'api' || !op.auth.includes('user') || op.authUnspecified || pathless(ctx, op)) continue;
    if (ctx.safeMode && op.mutates) continue;
    const path = op.parameters.filter((p) => p.in === 'path');
    const params = path.length > 0 ? Object.fromEntries(path.map((p) => [p.name, rnd.uuid()])) : undefined;
    // A money mover gets an empty body (or none): it names no transfer, so even a faulty target moves nothing.
    const body = (op.movesMoney ? undefined : SHOWN_BODIES[op.operationId]?.(ctx)) ?? (op.hasRequestBody ? {} : undefined);
    out.push({ op: op.operationId, ...(params ? { params } : {}), body, weight: 1, label: label(op) });
  }
  return out;
}

/** The identity-header rows (none, several, not found): every user-scoped operation callable with S2S. */
export function identityRowOperations(ctx: CheckContext, ruleId: RuleId, stepBodies: StepBodies = {}): RowOperation[] {
  return rowOperations(ctx, ruleId, 'identity', stepBodies);
}

/** The row's own spec/rules operations (the identity-provider rows: authorize and retail registration). */
export function ownRowOperations(ctx: CheckContext, ruleId: RuleId, bodies: Record<string, Record<string, unknown>> = {}): RowOperation[] {
  return ctx.model.rule(ruleId).operations
    .map((id) => ctx.model.operations.get(id as never) as Operation | undefined)
    .filter((op): op is Operation => !!op && !pathless(ctx, op))
    .map((op) => ({ op: op.operationId, body: bodies[op.operationId], weight: 1, label: label(op) }));
}

/**
 * Tries `attempt` on operations fast-check picks from `ops` with a value of `extra` (e.g. which
 * headers). Operation i runs first with each value of `first(i)` (fast-check examples), then
 * fast-check picks until `maxRuns` runs in all. A
 * failure is rethrown with the operation named in front, keeping its rules and response.
 * The runs are independent (src/checks/property.ts): each sends one request carrying the row's fault,
 * which a conforming target refuses without effect, so they go out in batches of at most PROBE_BATCH;
 * a failure is found again and shrunk sequentially, with the same seed and replay line.
 */
export async function rowOnOperations<T>(
  ctx: CheckContext,
  ops: RowOperation[],
  extra: fc.Arbitrary<T>,
  first: (i: number) => T[],
  attempt: (op: RowOperation, x: T) => Promise<void>,
  maxRuns = 24,
): Promise<void> {
  if (ops.length === 0) throw new Error('rowOnOperations: no operation to try the row on');
  const pick = fc.oneof(...ops.map((o) => ({ weight: o.weight, arbitrary: fc.constant(o) })));
  const property = fc.asyncProperty(pick, extra, async (op, x) => {
    try {
      await attempt(op, x);
    } catch (err) {
      if (err instanceof CheckFailure) throw new CheckFailure(`${op.label}: ${err.message}`, { rules: err.rules, response: err.response, comparison: err.comparison });
      throw err;
    }
  });
  const examples = ops.flatMap((o, i) => first(i).map((x) => [o, x] as [RowOperation, T]));
  // fast-check counts the examples inside numRuns (it stops after numRuns values, examples first): every
  // example, then fast-check's own picks up to maxRuns in all (at least one).
  // At most PROBE_BATCH runs at once (the run's propertyBatch when smaller): a row check also sweeps, and
  // its runs are single requests, so a small batch already shortens its chain below the run's longest.
  const batch = Math.min(ctx.propertyBatch ?? PROBE_BATCH, PROBE_BATCH);
  await checkProperty({ ...ctx, propertyBatch: batch }, property, { numRuns: examples.length + Math.max(1, Math.min(ctx.numRuns, maxRuns) - examples.length), examples }, { independent: true });
}

/** Real ids of shared fixtures a sweep fills path parameters with, by parameter name (e.g. card_id). */
export type FixtureIds = Partial<Record<string, string>>;

/**
 * The rest of a row's family after `tried` (rowOperations): the operations with path parameters, the
 * writes whose body is not shown and the money movers, one request each (sweepRow). Path parameters take
 * a shared fixture's real id where `ids` has one (one card for all rows: row-steps.ts), else a made-up
 * id; a body not shown is an empty object, and a money mover always gets one (it can move nothing).
 * Left out: an operation whose path is unknown here (the spec does not show it and the profile does not
 * give it: not reached, and `rules --audit` does not hold it against the rule), the ones whose
 * authentication the spec does not show, and under --safe every write.
 */
export function sweepOperations(ctx: CheckContext, family: RowFamily, tried: readonly RowOperation[], ids: FixtureIds = {}): RowOperation[] {
  const done = new Set<string>(tried.map((o) => o.op));
  const out: RowOperation[] = [];
  for (const op of ctx.model.operations.values()) {
    if (done.has(op.operationId) || op.server !== 'api' || op.authUnspecified || !ROW_FAMILY_APPLIES[family](ctx.model, op) || pathless(ctx, op)) continue;
    const get = op.method.toLowerCase() === 'get';
    if (ctx.safeMode && (op.mutates || !get)) continue;
    const path = op.parameters.filter((p) => p.in === 'path');
    const params = path.length > 0 ? Object.fromEntries(path.map((p) => [p.name, ids[p.name] ?? rnd.uuid()])) : undefined;
    const shown = op.movesMoney ? undefined : SHOWN_BODIES[op.operationId]?.(ctx);
    const body = shown ?? (op.hasRequestBody ? {} : undefined);
    out.push({ op: op.operationId, ...(params ? { params } : {}), body, weight: 1, label: label(op) });
  }
  return out;
}

/** How many sweep requests are in flight at once: bounded, so a sweep does not crowd the run's other checks. */
export const SWEEP_BATCH = PROBE_BATCH;

/**
 * One request per operation of `ops` with the row's fault (`send` builds it), SWEEP_BATCH at a time.
 * Section 7 does not give the order between a credentials row and the refusal of another input (a
 * made-up id, an empty body), so an answer passes when it is the row, or when it is some other 4xx
 * refusal (logged as reached but ambiguous; reading row-order-open of ERR-BODY-SHAPE in spec/rules/errors.yaml).
 * It fails when the request succeeded (2xx: the faulty credential was taken, in any order), or answered
 * 3xx or 5xx. A failure names the operation.
 */
export async function sweepRow(ctx: CheckContext, ruleId: ErrorRuleId, ops: readonly RowOperation[], send: (o: RowOperation) => Promise<HttpResponse>): Promise<void> {
  const ambiguous: string[] = [];
  await inBatches(ops, send, (o, res) => {
    try {
      expectError(ctx, res, ruleId);
    } catch (err) {
      if (!(err instanceof CheckFailure)) throw err;
      if (res.status < 400 || res.status >= 500) throw new CheckFailure(`${o.label}: ${err.message}`, { rules: err.rules, response: err.response, comparison: err.comparison });
      ambiguous.push(`${o.label} HTTP ${res.status}`);
    }
  }, SWEEP_BATCH);
  ctx.log(`${ruleId} swept ${ops.length} more operation(s)${ambiguous.length ? `; refused for another input first (the order is not shown, accepted): ${ambiguous.join('; ')}` : ''}`);
}
