/** The schemas of POST /api/workflows/:id/copilot (docs/CONTRACT.md section 16), gathered for the catalog; each is declared with its type in contract/copilot.ts. */

export {
  copilotAnswerSchema,
  copilotChangeSchema,
  copilotRefusalSchema,
  copilotRequestSchema,
  copilotUsageSchema,
} from "../copilot";
