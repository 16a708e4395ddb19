import type { RunOverhead } from "@/contract";
import { overheadParts } from "./run-overhead";

/** The trace's line of a run's time that was no block's: queue wait, start, storage and the gaps between blocks. */
export function RunOverheadLine({ overhead }: { overhead: RunOverhead | null | undefined }) {
  const parts = overheadParts(overhead);
  if (!overhead) return null;
  return (
    <div
      className="border-b border-slate-100 px-2 py-1 text-[11px] text-slate-500"
      data-testid="trace-overhead"
      title="Time this run spent outside its blocks: waiting in the queue, starting (reading secrets and caps), waiting for storage, and between blocks"
    >
      Outside blocks: {parts.length === 0 ? "under 1 ms" : parts.map((part) => part.text).join(" · ")}
    </div>
  );
}
