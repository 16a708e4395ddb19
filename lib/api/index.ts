import "server-only";
import { appAuthEndpoints } from "@/lib/auth";
import { appIdentify } from "@/lib/http/app-identify";
import { createDispatcher } from "@/lib/http/dispatch";
import { APP_ENDPOINTS } from "./app-endpoints";

/**
 * The app's REST API as one function, a request in and the answer out: the declared operations
 * (contract/openapi) over their handlers, with better-auth's routes under /api/auth/ behind them.
 * app/api/[...path]/route.ts serves it through Next.js; any other server may call it as well.
 */
export const answerApiRequest = createDispatcher(APP_ENDPOINTS, {
  identify: appIdentify,
  fallback: { prefix: "/api/auth/", endpoint: appAuthEndpoints.handle },
});

export { APP_ENDPOINTS } from "./app-endpoints";
