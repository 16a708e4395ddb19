import { z } from "zod";

/** The schemas of the MCP endpoints (docs/CONTRACT.md section 9), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { mcpPublicationSchema } from "../mcp-publication";

/** A JSON-RPC 2.0 message of the Model Context Protocol (or a batch of them): the SDK's own schemas check it. */
export const mcpMessageSchema = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z
      .union([z.string().min(1), z.number().int()])
      .optional()
      .describe("Present on requests (initialize, tools/list, tools/call), absent on notifications."),
    method: z.string().describe("`initialize`, `notifications/initialized`, `tools/list`, `tools/call`, `ping`."),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .describe("One JSON-RPC message of the Model Context Protocol (Streamable HTTP transport).");
