import { route } from "@/lib/http/route";
import { appImportEndpoints } from "@/lib/workflows/import/app-import-endpoints";

export const dynamic = "force-dynamic";

export const POST = route(appImportEndpoints.importFile);
