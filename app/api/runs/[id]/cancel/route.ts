import { appRunHttp } from "@/lib/runs/app-run-http";

export const dynamic = "force-dynamic";

export async function POST(_request: Request, context: { params: Promise<{ id: string }> }) {
  return appRunHttp.cancel((await context.params).id);
}
