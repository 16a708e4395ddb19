/**
 * How much to trust a change measured on a few cases: a two-sided sign test over the cases that
 * changed, and a bootstrap interval of the mean change. Pure and deterministic (the bootstrap's
 * random numbers come from a fixed seed), so a comparison reads the same every time.
 */

/** log(n choose k). */
function logChoose(n: number, k: number): number {
  let sum = 0;
  for (let index = 1; index <= k; index++) sum += Math.log(n - k + index) - Math.log(index);
  return sum;
}

/**
 * The two-sided p-value of the sign test: the chance, if a change were as likely to go either
 * way, of a split at least as lopsided as `improved` against `regressed`. 1 when nothing changed.
 */
export function signTest(improved: number, regressed: number): { n: number; pValue: number } {
  const n = improved + regressed;
  if (n === 0) return { n, pValue: 1 };
  const k = Math.min(improved, regressed);
  let tail = 0;
  for (let index = 0; index <= k; index++) tail += Math.exp(logChoose(n, index) - n * Math.LN2);
  // Rounded past what floating point sums keep exact, so 2 × (1/2)³ reads 0.25.
  return { n, pValue: Math.min(1, Math.round(2 * tail * 1e12) / 1e12) };
}

/** A small seeded generator (mulberry32): the same numbers on every machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const RESAMPLES = 2000;

/** A percentile bootstrap interval of the mean of `deltas` (the score change of each case in both evaluations). */
export function bootstrapInterval(
  deltas: readonly number[],
  confidence = 0.95,
): { low: number; high: number; confidence: number } {
  if (deltas.length === 0) return { low: 0, high: 0, confidence };
  const random = seeded(0x7e11);
  const means: number[] = [];
  for (let round = 0; round < RESAMPLES; round++) {
    let sum = 0;
    for (let draw = 0; draw < deltas.length; draw++) sum += deltas[Math.floor(random() * deltas.length)]!;
    means.push(sum / deltas.length);
  }
  means.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  const at = (fraction: number) => means[Math.min(RESAMPLES - 1, Math.max(0, Math.floor(fraction * RESAMPLES)))]!;
  return { low: at(tail), high: at(1 - tail), confidence };
}
