import { route } from "@/lib/http/route";
import { appWebhookEndpoints } from "@/lib/webhooks/app-webhook-endpoints";

export const dynamic = "force-dynamic";

export const POST = route(appWebhookEndpoints.receive);
export const OPTIONS = route(appWebhookEndpoints.preflight);
