import { KnowledgePage } from "@/components/knowledge/knowledge-page";
import { requireSignedIn } from "@/lib/auth";

export const metadata = { title: "Knowledge · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  await requireSignedIn("/knowledge");
  return <KnowledgePage />;
}
