import { ApiKeysPage } from "@/components/settings/api-keys-page";
import { requireSignedIn } from "@/lib/auth";

export const metadata = { title: "API keys · Trellis" };
export const dynamic = "force-dynamic";

export default async function Page() {
  await requireSignedIn("/settings/api-keys");
  return <ApiKeysPage />;
}
