import { appApprovalsHttp } from "@/lib/runs/app-approvals-http";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, context: { params: Promise<{ id: string }> }) {
  return appApprovalsHttp.list((await context.params).id);
}
