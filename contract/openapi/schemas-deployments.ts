import { z } from "zod";
import type { DeploymentInfo, DeploymentWithDocument, DocumentDiff } from "../deployments";
import type { ListPage } from "../pagination";
import { workflowDocumentSchema } from "../workflow-document";
import type { SameWireType } from "./same-type";
import { pageSchema, timestampSchema } from "./schemas-common";

/** Answers of the deployment endpoints (docs/CONTRACT.md section 9): lib/deployments/deployment-endpoints.ts. */

export const deploymentInfoSchema = z.object({
  id: z.string(),
  workflowId: z.string(),
  number: z.number().int().describe("Counts the workflow's deployments from 1."),
  workflowVersion: z.number().int().describe("The workflow's version that was deployed."),
  note: z.string(),
  createdAt: timestampSchema,
  createdBy: z.object({ id: z.string(), name: z.string() }).nullable().describe("Who deployed it; null once the user is deleted."),
  active: z.boolean(),
});

export const deploymentPageSchema = pageSchema("deployments", deploymentInfoSchema);

/** GET /api/workflows/:id/deployments/:deploymentId: the deployment and the document it froze. */
export const deploymentWithDocumentSchema = deploymentInfoSchema.extend({
  document: workflowDocumentSchema,
});

const diffBlockSchema = z.object({ id: z.string(), name: z.string(), type: z.string() });

export const documentDiffSchema = z.object({
  blocksAdded: z.array(diffBlockSchema),
  blocksRemoved: z.array(diffBlockSchema),
  blocksChanged: z.array(diffBlockSchema.extend({ fields: z.array(z.string()).describe("The fields that differ, e.g. `config.model`.") })),
  edgesAdded: z.number().int(),
  edgesRemoved: z.number().int(),
  otherChanges: z.array(z.string()).describe("Top-level parts that differ: `name`, `description`, `variables`, `settings`."),
});

// Compile-time: each schema describes exactly its contract type (same-type.ts).
const matches: [
  SameWireType<z.output<typeof deploymentInfoSchema>, DeploymentInfo>,
  SameWireType<z.output<typeof deploymentPageSchema>, ListPage<"deployments", DeploymentInfo>>,
  SameWireType<z.output<typeof deploymentWithDocumentSchema>, DeploymentWithDocument>,
  SameWireType<z.output<typeof documentDiffSchema>, DocumentDiff>,
] = [true, true, true, true];
void matches;
