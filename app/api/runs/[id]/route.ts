import { appRunHttp } from "@/lib/runs/app-run-http";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  return appRunHttp.get((await context.params).id);
}
