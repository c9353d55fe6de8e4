// Console reporter: one line per check as it finishes, then a summary with the seed and the command
// that replays the run. Colour only when writing to a terminal (and NO_COLOR is unset).

import type { Reporter, RunEvent } from '../events/index.ts';
import type { CheckResult } from '../events/index.ts';
import { DEFAULT_REPLAY_BASE, replayCommand } from './replay.ts';
import { blockingRulesText, diffLines, exitLines, expectedLines, rootCauseLines, unjudgedLines, warningLines } from './outcome-lines.ts';

export interface ConsoleReporterOptions {
  stream?: { write(chunk: string): unknown; isTTY?: boolean };
  color?: boolean;
  /** Command prefix for replay lines (e.g. `npx baas-conform run --profile p.json`). */
  replayBase?: string;
  /** Also print ctx.log lines and passing checks' timings. */
  verbose?: boolean;
}

const CODES = { red: 31, green: 32, yellow: 33, dim: 2, bold: 1 } as const;

/** Terminal control characters from the target must not reach the user's terminal. */
function clean(text: string | undefined): string {
  return (text ?? '').replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, ' ').replace(/\s*\n\s*/g, ' ⏎ ');
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export class ConsoleReporter implements Reporter {
  private readonly out: NonNullable<ConsoleReporterOptions['stream']>;
  private readonly color: boolean;
  private readonly replayBase: string;
  private seed = 0;
  private readonly failed: CheckResult[] = [];

  constructor(opts: ConsoleReporterOptions = {}) {
    this.out = opts.stream ?? process.stdout;
    this.color = opts.color ?? (!!this.out.isTTY && !process.env.NO_COLOR);
    this.replayBase = opts.replayBase ?? DEFAULT_REPLAY_BASE;
  }

  private paint(code: keyof typeof CODES, text: string): string {
    return this.color ? `\u001b[${CODES[code]}m${text}\u001b[0m` : text;
  }

  private line(text = ''): void {
    this.out.write(`${text}\n`);
  }

  onEvent(e: RunEvent): void {
    switch (e.type) {
      case 'run-started':
        this.seed = e.seed;
        this.line(
          `${this.paint('bold', `baas-conform ${e.toolVersion}`)} → ${clean(e.targetName)}${e.targetName !== e.target ? ` (${clean(e.target)})` : ''}: ${e.checks} checks, seed ${e.seed}${e.shard ? `, shard ${e.shard}` : ''}${e.safe ? ', safe mode' : ''}`,
        );
        break;
      case 'check-finished': {
        const r = e.result;
        if (r.verdict === 'pass') this.line(`${this.paint('green', 'PASS')} ${r.checkId} ${this.paint('dim', `(${duration(r.durationMs)})`)}`);
        else if (r.verdict === 'skip') this.line(`${this.paint('yellow', 'SKIP')} ${r.checkId} ${this.paint('dim', `— ${clean(r.reason)}`)}`);
        else if (r.verdict === 'blocked' && r.blocked.adapter) this.line(`${this.paint('red', 'ADAPTER ERROR')} ${r.checkId} — ${clean(r.blocked.message)} (blocked; no rule judged)`);
        else if (r.verdict === 'blocked') this.line(`${this.paint('red', 'BLOCKED')} ${r.checkId} — by ${r.blocked?.operation} ${blockingRulesText(r.blocked?.rules ?? [])}: ${clean(r.blocked?.message)}`);
        else {
          this.failed.push(r);
          const cause = r.failure?.cause ? ` [${r.failure.cause}]` : '';
          this.line(`${this.paint('red', 'FAIL')} ${r.checkId} — ${clean(r.failure?.message)}${cause}`);
        }
        break;
      }
      case 'run-finished': {
        const s = e.summary;
        const rules = s.rules;
        this.line();
        // Root causes first: one missing endpoint reads as one cause, not as every check it blocked.
        for (const l of rootCauseLines(e, clean)) this.line(l);
        for (const r of this.failed) {
          this.line(`${this.paint('red', '✗')} ${r.checkId} (spec §${clean(r.section)}; rules ${(r.failure?.rules ?? r.rules).join(', ')})`);
          this.line(`    ${clean(r.failure?.message)}`);
          if (r.failure?.counterexample) for (const l of r.failure.counterexample.split('\n').slice(0, 6)) this.line(`    ${clean(l)}`);
          if (r.failure?.exchange) this.line(`    ${this.paint('dim', clean(r.failure.exchange.curl).slice(0, 400))}`);
          this.line(`    replay: ${replayCommand(this.replayBase, this.seed, [r.checkId])}`);
        }
        const verdict = s.failed ? this.paint('red', `${s.failed} failed`) : this.paint('green', '0 failed');
        const blocked = s.blocked ? `, ${this.paint('red', `${s.blocked} blocked${s.adapterErrors ? ` (${s.adapterErrors} by a control adapter error)` : ''}`)}` : '';
        const warned = s.warned ? `, ${this.paint('yellow', `${s.warned} warned`)}` : '';
        for (const l of warningLines(e.results, clean)) this.line(this.paint('yellow', l));
        for (const l of unjudgedLines(e.results, clean)) this.line(l);
        for (const l of [...expectedLines(e, clean), ...diffLines(e, clean)]) this.line(l);
        this.line(`${this.paint('bold', 'Checks:')} ${s.passed} passed, ${verdict}${blocked}, ${s.skipped} skipped${warned} (${s.total} checks, ${s.requests} requests, ${duration(s.durationMs)})`);
        this.line(
          `${this.paint('bold', 'Rules:')}  ${rules.passed} passed, ${rules.failed} failed, ${rules.blocked ? `${rules.blocked} blocked, ` : ''}${rules.skipped} skipped, ${rules.uncovered} uncovered, ${rules.untestable} untestable (of ${rules.total})`,
        );
        const cov = s.coverage;
        if (cov) {
          const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
          this.line(
            `${this.paint('bold', 'Coverage:')} ${cov.rules.exercised} of ${cov.rules.testable} testable rules exercised (${pct(cov.exercisedShareOfTestable)}); skipped ${cov.rules.skipped} (${pct(cov.shares.skipped)}), untestable ${cov.rules.untestable} (${pct(cov.shares.untestable)}) of ${cov.rules.total}${cov.minimum ? `; --min-coverage ${cov.minimum.share} ${cov.minimum.met ? 'met' : this.paint('red', 'NOT met')}` : ''}`,
          );
          for (const g of cov.skippedByReason.slice(0, 6)) this.line(`  ${this.paint('dim', `skipped ${g.rules} rule(s), ${g.checks} check(s): ${clean(g.reason)}`)}`);
        }
        if (s.webhooks && (s.webhooks.dropped || s.webhooks.tooLarge)) {
          this.line(this.paint('yellow', `Webhooks: receiver overflow: ${s.webhooks.dropped} deliveries (${s.webhooks.droppedBytes} bytes) dropped from history, ${s.webhooks.tooLarge} refused as too large`));
        }
        const clock = s.sandbox?.clock;
        if (clock) this.line(clock.restored ? this.paint('dim', `Sandbox: ${clean(clock.message)}`) : this.paint('yellow', `Sandbox: ${clean(clock.message)}`));
        this.line(`${this.paint('bold', 'Seed:')}   ${this.seed}   replay: ${replayCommand(this.replayBase, this.seed)}`);
        for (const l of exitLines(e)) this.line(l);
        break;
      }
    }
  }
}
