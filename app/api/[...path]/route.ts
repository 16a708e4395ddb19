import { answerApiRequest } from "@/lib/api";

// Every answer depends on the request (its caller, stored data): never prerendered or cached.
export const dynamic = "force-dynamic";

/** Every operation under /api, dispatched by its declaration (lib/api); HEAD is Next's, from GET. */
export const GET = answerApiRequest;
export const POST = answerApiRequest;
export const PUT = answerApiRequest;
export const PATCH = answerApiRequest;
export const DELETE = answerApiRequest;
export const OPTIONS = answerApiRequest;
