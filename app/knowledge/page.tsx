import { KnowledgePage } from "@/components/knowledge/knowledge-page";

export const metadata = { title: "Knowledge · Trellis" };

export default function Page() {
  return <KnowledgePage />;
}
