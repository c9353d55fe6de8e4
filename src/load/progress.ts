// Progress of a running load test on stderr. On a terminal: one line rewritten in place (colour
// unless NO_COLOR). Piped or under CI: a plain line every `everySec` seconds, nothing rewritten.

import type { Progress } from './engine.ts';

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

const f1 = (n: number) => (n >= 100 ? Math.round(n).toString() : n.toFixed(1));

export function progressLine(p: Progress, mode: string): string {
  return `[${mode}] ${p.elapsed_s.toFixed(0)} s  ${f1(p.rps)} req/s  p99 ${f1(p.p99_ms)} ms  errors ${p.errors}  in flight ${p.in_flight}${p.queued ? `  queued ${p.queued}` : ''}  done ${p.completed}`;
}

export function progressPrinter(stream: ProgressStream, env: Record<string, string | undefined>, mode: string, everySec = 5): { onProgress: (p: Progress) => void; done: () => void } {
  const tty = !!stream.isTTY && !env.CI;
  const color = tty && !env.NO_COLOR;
  let last = -Infinity;
  let drawn = false;
  return {
    onProgress(p) {
      const line = progressLine(p, mode);
      if (tty) {
        const text = color && p.errors > 0 ? `\x1b[31m${line}\x1b[0m` : line;
        stream.write(`\r\x1b[2K${text}`);
        drawn = true;
      } else if (p.elapsed_s - last >= everySec - 0.5) {
        last = p.elapsed_s;
        stream.write(`${line}\n`);
      }
    },
    done() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
