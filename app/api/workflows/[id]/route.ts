import { workflowService } from "@/lib/workflows/service";
import { workflowHttp } from "@/lib/workflows/workflow-http";

export const dynamic = "force-dynamic";

const http = workflowHttp(workflowService);

interface RouteContext {
  params: Promise<{ id: string }>;
}

export async function GET(_request: Request, context: RouteContext) {
  return http.get((await context.params).id);
}

export async function PUT(request: Request, context: RouteContext) {
  return http.update(request, (await context.params).id);
}

export async function DELETE(_request: Request, context: RouteContext) {
  return http.remove((await context.params).id);
}
