import "server-only";
import { knowledgeEndpoints } from "./knowledge-endpoints";
import { getKnowledgeService } from "./knowledge-runtime";

/** The knowledge base endpoints over the app's database and this module instance's worker. */
export const appKnowledgeEndpoints = knowledgeEndpoints(getKnowledgeService);
