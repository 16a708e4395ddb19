import { IMPORT_FORMAT_LABELS, IMPORT_FORMATS, type ImportFormat } from "@/contract";
import { flowSteps } from "./anythingllm-flow";
import { simState } from "./sim-export";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Which known format a parsed file is, by the shape each one has and the others lack: Trellis's
 * document has `blocks` as a list, a Sim export `blocks` as a record of blocks with `subBlocks`, an
 * AnythingLLM flow `steps` with typed entries, an MCP-bridge workflow `agents` with `agent` names.
 */
export function detectFormat(file: unknown): ImportFormat | null {
  if (!isRecord(file)) return null;
  if (Array.isArray(file.blocks) && file.blocks.every((block) => isRecord(block) && typeof block.type === "string"))
    return "trellis";
  if (simState(file)) return "sim-export";
  const steps = flowSteps(file);
  if (steps && steps.length > 0 && steps.every((step) => isRecord(step) && typeof step.type === "string"))
    return "anythingllm-flow";
  if (
    Array.isArray(file.agents) &&
    file.agents.length > 0 &&
    file.agents.every((agent) => isRecord(agent) && typeof agent.agent === "string")
  )
    return "mcp-bridge-workflow";
  return null;
}

/** The message of the 400 for a file of no known shape: it names every format that is known. */
export function unknownFormatMessage(file: unknown): string {
  const what = Array.isArray(file)
    ? "a JSON array"
    : file === null
      ? "null"
      : typeof file !== "object"
        ? `a JSON ${typeof file}`
        : "a JSON object of another shape";
  return `The file is ${what}, not a flow Trellis can import. Known formats: ${IMPORT_FORMATS.map((format) => IMPORT_FORMAT_LABELS[format]).join("; ")}.`;
}
