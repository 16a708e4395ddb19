/**
 * A coarse sketch of a vector for a fast first pass in plain PostgreSQL: 2·D bits, the first D
 * set where a component is positive, the next D where it is negative. For a query sketch q,
 * `bit_count(sketch & q)` counts the components whose signs agree, one bitwise AND per row. For
 * dense vectors that is D minus the Hamming distance of their sign bits (random-hyperplane
 * hashing); for sparse ones (the offline embedder) it counts shared, same-signed features.
 * Candidates found this way are then ranked by exact cosine.
 */
export function signBits(vector: ReadonlyArray<number>): string {
  let positive = "";
  let negative = "";
  for (const value of vector) {
    positive += value > 0 ? "1" : "0";
    negative += value < 0 ? "1" : "0";
  }
  return positive + negative;
}
