import { route } from "@/lib/http/route";
import { appWebhookEndpoints } from "@/lib/webhooks/app-webhook-endpoints";

export const dynamic = "force-dynamic";

export const DELETE = route(appWebhookEndpoints.remove);
