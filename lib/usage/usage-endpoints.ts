import "server-only";
import { usageQueryFields, usageQuerySchema, zodIssues, type UsageQuery } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { RequestError } from "@/lib/http/errors";
import { describeIssues } from "@/lib/http/issues";
import type { UsageService } from "./usage-service";

const KNOWN_PARAMETERS = new Set(Object.keys(usageQueryFields.shape));

/** `?from=&to=&groupBy=...` as the resolved query; 400 `invalid_request` naming each bad parameter. */
export function readUsageQuery(request: Request, now?: () => Date): UsageQuery {
  const params = new URL(request.url).searchParams;
  const fields: Record<string, string> = {};
  const problems: Array<{ path: string; message: string }> = [];
  for (const [name, value] of params) {
    if (!KNOWN_PARAMETERS.has(name))
      problems.push({
        path: name,
        message: `is not a parameter of this endpoint; use ${[...KNOWN_PARAMETERS].join(", ")}`,
      });
    else if (name in fields) problems.push({ path: name, message: "is given more than once" });
    // An empty parameter (`?workflowId=`) is the same as leaving it out, as a form sends it.
    else if (value !== "") fields[name] = value;
  }
  const parsed = problems.length === 0 ? usageQuerySchema(now).safeParse(fields) : undefined;
  if (parsed?.success) return parsed.data;
  const details = parsed ? zodIssues(parsed.error) : problems;
  throw new RequestError("invalid_request", describeIssues("The usage query", details), details);
}

/** GET /api/usage (docs/CONTRACT.md section 9): any member may read, viewers included. */
export function usageEndpoints(service: () => UsageService) {
  return {
    report: endpoint("getUsage", async (request, _params, { workspace }) =>
      Response.json(await service().report(workspace.id, readUsageQuery(request))),
    ),
  };
}

export type UsageEndpoints = ReturnType<typeof usageEndpoints>;
