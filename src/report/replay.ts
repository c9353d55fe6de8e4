// The command that replays a run or one check: same seed, same per-check inputs.

export const DEFAULT_REPLAY_BASE = 'npx baas-conform run';

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function replayCommand(base: string, seed: number, checkIds: string[] = []): string {
  return [base, '--seed', String(seed), ...checkIds.flatMap((id) => ['--check', shellQuote(id)])].join(' ');
}
