// The client's webhook receiver (section 6), judged from the audit's deliveries to --webhook-url:
// repeated, late, with both names of each alias pair and an unknown extra field.

import { notExercised, type Judge, type JudgeGroup } from './context.ts';

export const webhookAccept: Judge = (ctx) => {
  if (!ctx.webhooks) return notExercised('no --webhook-url: the audit delivered no webhooks');
  if (ctx.deliveries.length === 0) return notExercised('the client did nothing that emits a webhook');
  const bad = ctx.deliveries.filter((d) => d.status === undefined || d.status < 200 || d.status > 299);
  const deliveries = ctx.deliveries.map((d) => d.seq);
  if (bad.length === 0) return { status: 'pass', message: `the receiver accepted ${ctx.deliveries.length} deliveries (repeats, extra field, both alias names included)`, exchanges: [], deliveries };
  const shown = bad.slice(0, 4).map((d) => `delivery ${d.seq} ${d.path} (${d.attempt}): ${d.status ?? d.error}`).join('; ');
  return { status: 'fail', message: `the receiver refused ${bad.length} of ${ctx.deliveries.length} deliveries: ${shown}`, exchanges: [], deliveries: bad.map((d) => d.seq) };
};

/** The client rules this file judges, by id (index.ts joins every file's group into JUDGES). */
export const WEBHOOK_JUDGES = {
  'CLIENT-WEBHOOK-ACCEPT': webhookAccept,
} satisfies JudgeGroup;
