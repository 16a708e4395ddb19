import { route } from "@/lib/http/route";
import { appWebhookEndpoints } from "@/lib/webhooks/app-webhook-endpoints";

export const dynamic = "force-dynamic";

export const GET = route(appWebhookEndpoints.list);
export const POST = route(appWebhookEndpoints.create);
