import type { RunOverhead } from "@/contract";
import { formatDuration } from "@/components/ui/format";

/** What the trace says a run's time went to beside its blocks, largest first; parts under a millisecond are left out. */
export function overheadParts(
  overhead: RunOverhead | null | undefined,
): Array<{ key: keyof RunOverhead; label: string; ms: number; text: string }> {
  if (!overhead) return [];
  const labels: Record<keyof RunOverhead, string> = {
    queueMs: "queued",
    startMs: "start",
    storageMs: "storage",
    betweenBlocksMs: "between blocks",
  };
  return (Object.keys(labels) as Array<keyof RunOverhead>)
    .map((key) => ({
      key,
      label: labels[key],
      ms: overhead[key],
      text: `${labels[key]} ${formatDuration(overhead[key])}`,
    }))
    .filter((part) => part.ms >= 1)
    .sort((a, b) => b.ms - a.ms);
}
