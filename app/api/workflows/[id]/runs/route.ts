import { appRunHttp } from "@/lib/runs/app-run-http";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ id: string }>;
}

export async function POST(request: Request, context: RouteContext) {
  return appRunHttp.start(request, (await context.params).id);
}

export async function GET(request: Request, context: RouteContext) {
  return appRunHttp.list(request, (await context.params).id);
}
