/** The constant from Cormack, Clarke and Büttcher (2009): it damps the weight of the very top ranks. */
export const RRF_K = 60;

export interface FusedItem<Id> {
  id: Id;
  /** Sum of 1/(k + rank) over the lists, divided by the best possible sum: 1.0 = first in every list. */
  score: number;
  /** 1-based rank in each list, or null where the item is absent. */
  ranks: Array<number | null>;
}

/**
 * Reciprocal rank fusion: merges ranked lists by rank alone, so scores on different scales
 * (ts_rank and cosine) need no calibration. Ties keep the order of first appearance.
 */
export function reciprocalRankFusion<Id>(lists: ReadonlyArray<ReadonlyArray<Id>>, k = RRF_K): Array<FusedItem<Id>> {
  const best = lists.length / (k + 1);
  const fused = new Map<Id, { sum: number; ranks: Array<number | null>; order: number }>();
  lists.forEach((list, listIndex) => {
    list.forEach((id, position) => {
      let entry = fused.get(id);
      if (!entry) {
        entry = { sum: 0, ranks: lists.map(() => null), order: fused.size };
        fused.set(id, entry);
      }
      if (entry.ranks[listIndex] !== null) return;
      entry.ranks[listIndex] = position + 1;
      entry.sum += 1 / (k + position + 1);
    });
  });
  return [...fused.entries()]
    .sort(([, a], [, b]) => b.sum - a.sum || a.order - b.order)
    .map(([id, entry]) => ({ id, score: best > 0 ? entry.sum / best : 0, ranks: entry.ranks }));
}
