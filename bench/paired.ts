// Paired-round statistics for benchmarks on a noisy machine. A baseline and a candidate measured
// back to back in one round share the machine's state of that moment (a neighbour's burst, a slow
// phase of the host), so the ratio of the two cancels most of it; the median over rounds then drops
// the rounds a burst split unevenly. A ratio of two "best of N" figures does neither: each best
// comes from a different moment, so the ratio moves with whichever side was luckier.

export const median = (xs: readonly number[]): number => {
  if (xs.length === 0) throw new RangeError('median of no samples');
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export interface PairedRatio {
  /** The median of the per-round ratios: the figure of merit. */
  median: number;
  /** The least and greatest per-round ratio, to show the spread. */
  low: number;
  high: number;
  /** Every round's ratio, in round order. */
  rounds: number[];
}

/** candidate[i] / baseline[i] for each round i, summarised by its median (the two series must pair up). */
export function pairedRatio(candidate: readonly number[], baseline: readonly number[]): PairedRatio {
  if (candidate.length !== baseline.length || candidate.length === 0) {
    throw new RangeError(`paired rounds must match one to one (candidate ${candidate.length}, baseline ${baseline.length})`);
  }
  const rounds = candidate.map((c, i) => c / baseline[i]);
  return { median: median(rounds), low: Math.min(...rounds), high: Math.max(...rounds), rounds };
}
