// Which checks re-judging cannot reproduce offline, from spec/rules (`rejudge: no` with a
// rejudge_reason on a rule): a check is not re-judgeable when any rule it judges is marked, or when
// it needs a service a playback target cannot stand for (the test identity provider, the webhook
// receiver) while judging a rule other checks share (the response schema of an operation). The
// certificate lists them, so a reader knows which verdicts rest on the signature alone.

import type { Model } from '../model/types.ts';

export interface NotRejudgeable {
  checkId: string;
  /** The check's rules marked rejudge: no. */
  rules: string[];
  reason: string;
}

/** Needs no playback target meets, and why. */
const OFFLINE_NEEDS: Record<string, string> = {
  idp: 'needs the test identity provider (needs: idp), whose tokens are signed with a key made for the run',
  idp_tokens: 'needs the test identity provider (needs: idp_tokens), whose tokens are signed with a key made for the run',
  webhooks: "needs the webhook receiver (needs: webhooks): deliveries are not in the transcript",
};

export function notRejudgeable(model: Pick<Model, 'rules'>, checks: readonly { checkId: string; rules: readonly string[]; needs?: readonly string[] }[]): NotRejudgeable[] {
  const marked = new Map(model.rules.filter((r) => r.rejudge === 'no').map((r) => [r.id as string, r.rejudge_reason ?? '']));
  const out: NotRejudgeable[] = [];
  for (const c of checks) {
    const rules = c.rules.filter((id) => marked.has(id));
    if (rules.length) out.push({ checkId: c.checkId, rules, reason: [...new Set(rules.map((id) => `${id}: ${marked.get(id)}`))].join('; ') });
    else {
      const need = (c.needs ?? []).flatMap((n) => n.split('|')).find((n) => OFFLINE_NEEDS[n]);
      if (need) out.push({ checkId: c.checkId, rules: [], reason: OFFLINE_NEEDS[need] });
    }
  }
  return out;
}
