import type { Metadata } from "next";
import "@xyflow/react/dist/style.css";
import { WorkflowEditor } from "@/components/editor";

export const metadata: Metadata = { title: "Workflow · Trellis" };

export default async function WorkflowPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WorkflowEditor workflowId={id} />;
}
