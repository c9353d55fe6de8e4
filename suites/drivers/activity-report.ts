// EVENT-ACTIVITY-WEBHOOK-REPORTS: the activity webhooks of a card transfer report that transfer's
// activity (section 6: "Transaction status, including card-transfer completion, is reported by activity
// webhooks"). The payload is not shown (reading activity-reference): the activity is named as activity_id,
// as id, or anywhere in the body; a delivery whose activity_id names only another activity, or whose
// type or direction (section 2 Activity item) differ from the activity read, reports something else.

import type { CheckContext, ReceivedWebhook } from '../../src/checks/types.ts';
import { type TestUser, asUser, check, is2xx, mentionsDeep } from '../kit/index.ts';
import type { RuleId } from '../../src/model/types.ts';

const RULES: RuleId[] = ['EVENT-ACTIVITY-WEBHOOK-REPORTS'];
/** Nesting searched for the activity object (envelopes such as { event, data: {...} } are common). */
const DEPTH = 4;

type Obj = Record<string, unknown>;
const isObj = (o: unknown): o is Obj => o !== null && typeof o === 'object' && !Array.isArray(o);
const same = (v: unknown, id: string) => (typeof v === 'string' || typeof v === 'number') && String(v).toLowerCase() === id.toLowerCase();

/** Objects of a body, breadth first, down to DEPTH levels. */
function objectsOf(body: unknown): Obj[] {
  const out: Obj[] = [];
  let level: unknown[] = [body];
  for (let d = 0; d < DEPTH && level.length > 0; d++) {
    const next: unknown[] = [];
    for (const o of level) {
      if (Array.isArray(o)) next.push(...o);
      else if (isObj(o)) {
        out.push(o);
        next.push(...Object.values(o));
      }
    }
    level = next;
  }
  return out;
}

/** What is wrong with one delivery mentioning the activity; undefined when it reports that activity. */
export function activityReportProblem(body: unknown, activityId: string, read: { type?: unknown; direction?: unknown } | undefined): string | undefined {
  const objs = objectsOf(body);
  const named = objs.filter((o) => 'activity_id' in o).map((o) => o.activity_id);
  if (named.length > 0 && !named.some((v) => same(v, activityId))) {
    return `it names activity_id ${JSON.stringify(named.length === 1 ? named[0] : named)}, not the transfer's ${activityId} (which it mentions elsewhere)`;
  }
  // The object standing for the activity: the one naming it as activity_id or id.
  const own = objs.find((o) => same(o.activity_id, activityId) || same(o.id, activityId));
  if (!own || !read) return undefined;
  const diffs = (['type', 'direction'] as const)
    .filter((f) => typeof own[f] === 'string' && typeof read[f] === 'string' && own[f] !== read[f])
    .map((f) => `${f} ${JSON.stringify(own[f])} (the activity reads ${JSON.stringify(read[f])})`);
  return diffs.length ? `it reports ${diffs.join(', ')}` : undefined;
}

/** Judges every activity webhook received so far that mentions the transfer's activity. */
export async function expectActivityReported(ctx: CheckContext, user: TestUser, path: string, activityId: string): Promise<void> {
  const hooks: ReceivedWebhook[] = ctx.services.webhooks!.all().filter((w) => w.path === path && mentionsDeep(w.body, activityId));
  let read: { type?: unknown; direction?: unknown } | undefined;
  if (ctx.profile.operations?.getActivity) {
    const res = await asUser(ctx, user, { op: 'getActivity', params: { activity_id: activityId } });
    if (is2xx(res) && isObj(res.json)) read = res.json;
  }
  if (!read) ctx.log('the activity cannot be read by ID (profile.operations.getActivity): the webhook\'s type and direction are not compared');
  const problems = hooks.map((w) => activityReportProblem(w.body, activityId, read)).filter((p): p is string => p !== undefined);
  check(problems.length === 0, `of ${hooks.length} activity webhook(s) on ${path} mentioning activity ${activityId}, ${problems.length} report another activity: ${[...new Set(problems)].slice(0, 3).join('; ')}`, { rules: RULES });
}
