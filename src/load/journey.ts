// The journey scenario: the documented partner flow (journey-flow.ts) per virtual user, step after
// step, with think times. Closed model: the shape gives the virtual users; open model: it gives
// journeys started per second. Every step's answer is timed and judged like any other load answer
// (journey-traffic.ts); this file drives the users or arrivals, the drain and the result.

import type { WebhookReceiver } from '../checks/types.ts';
import { startServices } from '../runner/services.ts';
import type { EngineOptions, EngineRun } from './engine-types.ts';
import { journeyFlow, JOURNEY_STEPS, type JourneyCounts } from './journey-flow.ts';
import { JourneyTraffic } from './journey-traffic.ts';
import type { LoadJudge } from './judge.ts';
import { arrivalTimes, shapeDurationMs, valueAt, type Shape } from './schedule.ts';
import { progressTicker, sendPhase } from './send-phase.ts';
import type { SetupHttp } from './setup.ts';
import { Timeline } from './timeline.ts';

export interface JourneyOptions {
  http: SetupHttp;
  kind: 'open' | 'closed';
  /** closed: virtual users over time; open: journeys started per second. */
  shape: Shape;
  /** At most this many step requests. */
  maxRequests: number;
  thinkTimeMs: number;
  drainMs: number;
  judge?: LoadJudge;
  /** The receiver the target delivers to; without it the webhook step is left out (a note says so). */
  webhooks?: WebhookReceiver;
  webhookTimeoutMs: number;
  arrivals?: { kind: 'uniform' | 'poisson'; seed: number };
  onSettled?: (op: string, status: number, us: number, kind: 'status' | 'timeout' | 'transport' | 'incomplete') => void;
  live?: EngineOptions['live'];
  onProgress?: EngineOptions['onProgress'];
  stopWhen?: EngineOptions['stopWhen'];
}

export interface JourneyRun extends EngineRun {
  journeys: JourneyCounts;
}

export async function runJourneys(o: JourneyOptions): Promise<JourneyRun> {
  const sendMs = shapeDurationMs(o.shape);
  const timeline = new Timeline(Math.ceil((sendMs + o.drainMs) / 1000) + 2);
  let sending = true;
  const startedAt = new Date();
  const t0 = performance.now();
  const traffic = new JourneyTraffic({
    http: o.http, timeline, t0,
    ...(o.judge ? { judge: o.judge } : {}), ...(o.onSettled ? { onSettled: o.onSettled } : {}), ...(o.live ? { live: o.live } : {}),
  });
  const { journey, think, counts } = journeyFlow(traffic, {
    http: o.http, thinkTimeMs: o.thinkTimeMs, webhookTimeoutMs: o.webhookTimeoutMs, ...(o.webhooks ? { webhooks: o.webhooks } : {}),
  });

  const running = new Set<Promise<void>>();
  const launch = (p: Promise<void>) => {
    running.add(p);
    void p.finally(() => running.delete(p));
  };
  const room = () => sending && traffic.sent < o.maxRequests;
  let users = 0;
  const user = async () => {
    users++;
    while (room() && users <= Math.round(valueAt(o.shape, performance.now() - t0))) {
      await journey();
      await think();
    }
    users--;
  };
  let timer: NodeJS.Timeout | undefined;
  if (o.kind === 'closed') {
    const control = () => {
      while (room() && users < Math.round(valueAt(o.shape, performance.now() - t0))) launch(user());
    };
    control();
    timer = setInterval(control, 50);
  } else {
    const times = arrivalTimes(o.shape, o.maxRequests, o.arrivals);
    let next = times.next();
    const tick = () => {
      const now = performance.now() - t0;
      while (!next.done && next.value <= now && room()) {
        launch(journey());
        next = times.next();
      }
      if (room() && !next.done) timer = setTimeout(tick, Math.max(0, Math.min(20, next.value - (performance.now() - t0))));
    };
    tick();
  }
  const progress = progressTicker(o.onProgress, 1000, t0, () => traffic.overall, () => ({ completed: traffic.completed, errors: traffic.errors, inFlight: traffic.inFlight, queued: 0 }));
  const stopped = await sendPhase(sendMs, t0, timeline, o.stopWhen);
  sending = false;
  clearInterval(timer);
  clearTimeout(timer);
  // Journeys under way finish their current step chain within the drain; what is left is reported.
  let drainTimer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled([...running]), new Promise<void>((r) => (drainTimer = setTimeout(r, o.drainMs)))]);
  clearTimeout(drainTimer);
  const end = performance.now();
  const incomplete = traffic.settlePending(end);
  clearInterval(progress);
  await Promise.allSettled([...running]);
  return {
    started_at: startedAt,
    wall_ms: end - t0,
    send_ms: stopped ? stopped.at_s * 1000 : sendMs,
    overall: traffic.overall,
    ops: traffic.ops,
    timeline,
    sent: traffic.sent,
    late: { count: 0, max_ms: 0, total_ms: 0, waited_for_connection: 0 },
    incomplete,
    max_in_flight: traffic.maxInFlight,
    journeys: counts,
    ...(stopped ? { stopped } : {}),
  };
}

/** The journey scenario's run: the webhook receiver registered as `run` registers it, the journeys, notes. */
export async function journeyScenarioRun(o: Omit<JourneyOptions, 'webhooks' | 'webhookTimeoutMs'>, notes: string[]): Promise<EngineRun> {
  const s = o.http;
  // The run's one session (src/client): the webhook registration goes through it, as setup does.
  const session = s.session;
  const services = await startServices(session, { idp: false, webhooks: true });
  try {
    const webhooks = services.services.webhooks;
    const webhookTimeoutMs = s.profile.webhook_timeout_ms ?? s.timeoutMs;
    if (!webhooks) notes.push(`journey: the activity webhook step is left out: ${services.problems.webhooks ?? 'no webhook receiver'}`);
    const run = await runJourneys({ ...o, ...(webhooks ? { webhooks } : {}), webhookTimeoutMs });
    const j = run.journeys;
    const broken = Object.entries(j.broken).map(([at, n]) => `${n} at ${at}`).join(', ');
    notes.push(
      `journey: ${j.started} journeys started, ${j.completed} completed end to end${broken ? `, broken: ${broken}` : ''}; steps ${JOURNEY_STEPS.filter((x) => webhooks || x !== 'webhookActivities').join(' -> ')}, think time ${o.thinkTimeMs} ms; per-step percentiles are the per-operation figures (latency from each step's own send; the S2S token is cached across journeys and refreshed the section 8 buffer before expires_at, as section 5 recommends; the webhook step from the execute answer to the delivery, waited up to ${webhookTimeoutMs} ms)`,
    );
    return run;
  } finally {
    await services.close();
  }
}
