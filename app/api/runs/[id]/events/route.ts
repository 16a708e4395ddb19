import { appRunHttp } from "@/lib/runs/app-run-http";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ id: string }> }) {
  return appRunHttp.events(request, (await context.params).id);
}
