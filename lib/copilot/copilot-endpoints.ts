import "server-only";
import { copilotRequestSchema } from "@/contract";
import { endpoint } from "@/lib/http/endpoint";
import { readJsonRequest } from "@/lib/http/read-json";
import type { Copilot } from "./copilot-service";

const MAX_COPILOT_REQUEST_BYTES = 64 * 1024;

/** POST /api/workflows/:id/copilot (docs/CONTRACT.md section 16): a proposal for the draft; nothing of it is stored. */
export function copilotEndpoints(copilot: () => Copilot) {
  return {
    ask: endpoint("askCopilot", async (request, { id }, { workspace }) => {
      const body = await readJsonRequest(request, copilotRequestSchema, {
        subject: "The copilot request",
        maxBytes: MAX_COPILOT_REQUEST_BYTES,
      });
      return Response.json(await copilot().ask(workspace.id, id, body, request.signal));
    }),
  };
}

export type CopilotEndpoints = ReturnType<typeof copilotEndpoints>;
