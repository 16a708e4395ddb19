import type { Metadata } from "next";
import "@xyflow/react/dist/style.css";
import { WorkflowEditor } from "@/components/editor";
import { requireSignedIn } from "@/lib/auth";

export const metadata: Metadata = { title: "Workflow · Trellis" };
export const dynamic = "force-dynamic";

export default async function WorkflowPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireSignedIn(`/workflows/${encodeURIComponent(id)}`);
  return <WorkflowEditor workflowId={id} />;
}
