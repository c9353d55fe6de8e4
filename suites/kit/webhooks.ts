// Webhooks (section 6): delivery paths from the model, and how long a check waits for a webhook the
// target emits on its own schedule.

import type { ValidateFunction } from 'ajv';
import { CheckFailure } from '../../src/checks/signals.ts';
import type { CheckContext } from '../../src/checks/types.ts';
import type { ControlOperationId, RuleId } from '../../src/model/types.ts';
import { WEBHOOK_WAIT_DEFAULTS } from '../../src/options/index.ts';

/** Delivery path of a section 6 webhook, from the model (spec/openapi.yaml webhooks.<name>.post.x-webhook-path). */
export function webhookPath(ctx: CheckContext, name: string): string {
  const p = ctx.model.openapi?.webhooks?.[name]?.post?.['x-webhook-path'];
  if (typeof p !== 'string') throw new Error(`spec/openapi.yaml has no webhooks.${name}.post.x-webhook-path`);
  return p;
}

/**
 * How long to wait for a webhook the target emits on its own schedule: profile.webhook_timeout_ms, else
 * 20 s when the control API settled the event at once, else 90 s; always within 1 s..10 min. Past the
 * 90 s default a check warns instead of failing where the spec allows minutes (EVENT-CARD-TRANSFER-
 * ACTIVITY reading delivery-time): the default run stays short, and the profile's wait is the verdict's.
 */
export function webhookTimeoutMs(ctx: CheckContext, settledByControl: boolean): number {
  const d = WEBHOOK_WAIT_DEFAULTS;
  const want = ctx.profile.webhook_timeout_ms ?? (settledByControl ? d.settledMs : d.unsettledMs);
  return Math.min(d.maxMs, Math.max(d.minMs, want));
}

/**
 * How long to wait for a webhook a documented call should provoke but whose timing the spec does not
 * give (user, 3DS, withdrawal webhooks). The profile's webhook_timeout_ms is the user's bound and always
 * wins (section 6 shows no delivery time, so a target delivering within it must not lose coverage).
 * Without it: with an external receiver (deliveries cross the vendor's queue and a tunnel) the settled
 * default; on a loopback receiver the engine registered itself, `fallbackMs`.
 */
export function provokedWebhookWaitMs(ctx: CheckContext, fallbackMs: number): number {
  if (ctx.profile.webhook_timeout_ms !== undefined || ctx.profile.webhooks) return webhookTimeoutMs(ctx, true);
  return fallbackMs;
}

/**
 * The schema spec/openapi.yaml gives a webhook body: `webhooks.<name>` (compiled as `webhook:<name>`),
 * or for a webhook whose path the spec does not show, its `x-unspecified-webhooks.<name>.schema`.
 * Undefined when there is none.
 */
export function webhookValidator(ctx: CheckContext, name: string): ValidateFunction | undefined {
  const own = ctx.model.validator(`webhook:${name}`);
  if (own) return own;
  const ref = ctx.model.openapi?.['x-unspecified-webhooks']?.[name]?.schema;
  return typeof ref === 'string' ? ctx.model.validator(ref) : undefined;
}

/** A webhook body matches the schema of its webhook (section 6 names the fields; most schemas only type them). */
export function expectWebhookSchema(ctx: CheckContext, name: string, body: unknown, rules: RuleId[]): void {
  const validate = webhookValidator(ctx, name);
  if (!validate || validate(body)) return;
  const problems = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
  const text = typeof body === 'string' ? body : JSON.stringify(body) ?? '';
  throw new CheckFailure(`the ${name} webhook body does not match its spec/openapi.yaml schema (${problems}): ${text.slice(0, 200)}`, { rules });
}

/** The webhooks a control operation's x-emits-webhooks names (spec/control.yaml); { parameter } reads that parameter's enum. */
function emitsOf(op: Record<string, unknown>): string[] {
  const emits = op['x-emits-webhooks'];
  if (Array.isArray(emits)) return emits.map(String);
  const param = emits !== null && typeof emits === 'object' ? (emits as { parameter?: unknown }).parameter : undefined;
  if (typeof param !== 'string') return [];
  const p = (op.parameters as { name?: string; schema?: { enum?: unknown[] } }[] | undefined)?.find((x) => x?.name === param);
  return (p?.schema?.enum ?? []).map(String);
}

/**
 * The control operations spec/control.yaml documents as making the target deliver webhook `name`
 * (x-emits-webhooks), in document order. A check that made one of these calls successfully requires
 * the webhook: none arriving is the target's failure, not the spec's silence on when it is emitted.
 */
export function controlsEmitting(ctx: CheckContext, name: string): ControlOperationId[] {
  const out: ControlOperationId[] = [];
  for (const item of Object.values(ctx.model.control?.paths ?? {})) {
    for (const op of Object.values(item ?? {})) {
      if (op === null || typeof op !== 'object') continue;
      const rec = op as Record<string, unknown>;
      if (typeof rec.operationId === 'string' && emitsOf(rec).includes(name)) out.push(rec.operationId as ControlOperationId);
    }
  }
  return out;
}

/** True when spec/control.yaml documents `operationId` as emitting webhook `name`. */
export function controlEmits(ctx: CheckContext, operationId: ControlOperationId, name: string): boolean {
  return controlsEmitting(ctx, name).includes(operationId);
}
