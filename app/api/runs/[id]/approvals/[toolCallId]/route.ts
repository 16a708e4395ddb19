import { appApprovalsHttp } from "@/lib/runs/app-approvals-http";

export const dynamic = "force-dynamic";

export async function POST(request: Request, context: { params: Promise<{ id: string; toolCallId: string }> }) {
  const { id, toolCallId } = await context.params;
  return appApprovalsHttp.decide(request, id, toolCallId);
}
