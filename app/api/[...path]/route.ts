import { answerApiRequest } from "@/lib/api";

// Every answer depends on the request (its caller, stored data): never prerendered or cached.
export const dynamic = "force-dynamic";

/** Every operation under /api, dispatched by its declaration (lib/api); HEAD is Next's, from GET. */
export const GET = (request: Request) => answerApiRequest(request);
export const POST = GET;
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
export const OPTIONS = GET;
