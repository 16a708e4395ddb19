import { handleErrors } from "@/lib/http/errors";
import { createKnowledgeBase, listKnowledgeBases } from "@/lib/knowledge/knowledge-http";
import { getKnowledgeService } from "@/lib/knowledge/knowledge-runtime";

export const dynamic = "force-dynamic";

export const GET = handleErrors(async () => listKnowledgeBases(getKnowledgeService()));

export const POST = handleErrors(async (request: Request) => createKnowledgeBase(getKnowledgeService(), request));
