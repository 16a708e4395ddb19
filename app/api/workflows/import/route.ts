import { route } from "@/lib/http/route";
import { importEndpoint } from "@/lib/workflows/import/import-endpoint";
import { appMcpServerNames, workflowService } from "@/lib/workflows/service";

export const dynamic = "force-dynamic";

export const POST = route(importEndpoint(workflowService, appMcpServerNames));
