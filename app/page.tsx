import { WorkflowHome } from "@/components/workflows/workflow-home";

export default function HomePage() {
  return <WorkflowHome />;
}
