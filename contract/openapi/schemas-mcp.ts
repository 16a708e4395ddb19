import { z } from "zod";
import type { McpPublication } from "../mcp-publication";
import type { SameWireType } from "./same-type";

/** Answers of the MCP endpoints (docs/CONTRACT.md section 9): lib/mcp/mcp-endpoints.ts. */

export const mcpPublicationSchema = z.object({
  published: z.boolean().describe("False before the workflow was first published."),
  enabled: z.boolean(),
  toolName: z.string().describe("The stored name; before the first publication, a suggestion made from the workflow's name."),
  description: z.string().describe("Empty: the tool is described by the workflow's own description."),
  deployed: z.boolean().describe("Whether the workflow has an active deployment: the tool is listed, and runs, only with one."),
  endpoint: z.string().describe("The workspace's MCP server: `<origin>/api/mcp`."),
});

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

// Compile-time: the schema describes exactly its contract type (same-type.ts).
const matches: [SameWireType<z.output<typeof mcpPublicationSchema>, McpPublication>] = [true];
void matches;
