import { workflowService } from "@/lib/workflows/service";
import { workflowHttp } from "@/lib/workflows/workflow-http";

export const dynamic = "force-dynamic";

const http = workflowHttp(workflowService);

export function GET() {
  return http.list();
}

export function POST(request: Request) {
  return http.create(request);
}
