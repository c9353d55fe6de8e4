// An in-memory CliIo for tests and embedders: runs `main` without touching the process streams.
import type { CliIo } from './types.ts';

export function captureIo(overrides: Partial<Pick<CliIo, 'env' | 'cwd'>> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    env: overrides.env ?? {},
    cwd: overrides.cwd ?? process.cwd(),
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}
