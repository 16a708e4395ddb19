import "server-only";
import { handleErrors } from "./errors";

/** What a route without dynamic segments receives as params. */
export type NoParams = Record<string, never>;

declare const answersErrors: unique symbol;

/**
 * One API operation: the request and its route's params in, a response out. Only `endpoint()`
 * makes one, so every endpoint answers a thrown error with the contract's error body, and
 * `route()` cannot bind anything else.
 */
export type Endpoint<Params = NoParams> = ((request: Request, params: Params) => Promise<Response>) & { readonly [answersErrors]: true };

/** Makes an endpoint of a handler: whatever it throws goes through errorResponse. */
export function endpoint<Params = NoParams>(handler: (request: Request, params: Params) => Promise<Response>): Endpoint<Params> {
  return handleErrors(handler) as Endpoint<Params>;
}

/**
 * Binds an endpoint as a Next.js route handler. The signature is the one Next checks route
 * exports against (`{ params: Promise<...> }`, see .next/types/validator.ts after `next typegen`).
 */
export function route<Params>(bound: Endpoint<Params>): (request: Request, context: { params: Promise<Params> }) => Promise<Response> {
  return async (request, context) => bound(request, await context.params);
}
