"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useEditorStore } from "@/components/editor/store";
import { api } from "@/contract";
import { runHref } from "@/components/ui/run-href";

/** In the run panel's header: the followed run is a re-run, from which block of which run (a link to that run's page, on the graph it ran). */
export function RerunOfLink() {
  const runId = useEditorStore((state) => state.run.view.runId);
  const workflowId = useEditorStore((state) => state.workflowId);
  const run = useQuery({ queryKey: ["run", runId], queryFn: () => api.runs.get(runId!), enabled: runId !== null });
  const blockNames = useEditorStore((state) => state.run.view.blockNames);
  const nodeName = useEditorStore(
    (state) => state.nodes.find((node) => node.id === run.data?.rerunOf?.blockId)?.data.name,
  );
  const rerunOf = run.data?.id === runId ? run.data?.rerunOf : null;
  if (!rerunOf) return null;
  const blockName = nodeName ?? blockNames[rerunOf.blockId] ?? rerunOf.blockId;
  return (
    <span className="text-xs text-slate-500" data-testid="run-rerun-of">
      Re-run from {blockName} of{" "}
      <Link
        href={runHref(workflowId, rerunOf.runId)}
        className="text-indigo-700 underline"
        data-testid="run-rerun-of-link"
      >
        run {rerunOf.runId.slice(-8)}
      </Link>
    </span>
  );
}
