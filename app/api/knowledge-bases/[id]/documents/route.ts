import { handleErrors } from "@/lib/http/errors";
import { listDocuments, uploadDocuments } from "@/lib/knowledge/knowledge-http";
import { getKnowledgeService } from "@/lib/knowledge/knowledge-runtime";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ id: string }>;
}

export const GET = handleErrors(async (_request: Request, context: RouteContext) => listDocuments(getKnowledgeService(), (await context.params).id));

export const POST = handleErrors(async (request: Request, context: RouteContext) => uploadDocuments(getKnowledgeService(), request, (await context.params).id));
