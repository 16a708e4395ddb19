import { toolEntryType } from "@/contract";

/**
 * The agent's `tools` config as the picker edits it: each entry an object in the shape the tool
 * registry reads (contract/tool-entry.ts ToolEntry: `type`, `name`, `params`, `requireApproval`,
 * `directOutput`, `routeOnOutcome`). Pure functions, so the picker's rules are tested alone.
 */

export type ToolEntryFields = Record<string, unknown> & { type?: unknown; name?: unknown; params?: unknown };

export const RUN_FUNCTION_TYPE = "run_function";
export const MCP_TYPE = "mcp";
export const WORKFLOW_TYPE = "workflow";

/** An entry as an object: a tool id written as text (`"calculator"`) becomes `{ type }`. */
export function entryFields(entry: unknown): ToolEntryFields {
  if (typeof entry === "string") return { type: entry.trim() };
  return typeof entry === "object" && entry !== null && !Array.isArray(entry) ? { ...(entry as ToolEntryFields) } : {};
}

/** The tool type the entry names in any of its forms (contract/tool-entry.ts), or "" when it names none. */
export function entryType(entry: unknown): string {
  return toolEntryType(entry) ?? "";
}

export function entryParams(entry: unknown): Record<string, unknown> {
  const params = entryFields(entry).params;
  return typeof params === "object" && params !== null && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : {};
}

/** A value a person left empty is left out, so the tool's own default applies. */
function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === "" ||
    (typeof value === "object" && value !== null && Object.keys(value).length === 0)
  );
}

/** The entry with one param set, or removed when empty (and `params` removed when none is left). */
export function withParam(entry: unknown, name: string, value: unknown): ToolEntryFields {
  const fields = entryFields(entry);
  const params = { ...entryParams(entry) };
  if (isEmpty(value)) delete params[name];
  else params[name] = value;
  if (Object.keys(params).length === 0) delete fields.params;
  else fields.params = params;
  return fields;
}

/** The entry with a top-level field set, or removed when off or empty (as an entry without it reads). */
export function withField(entry: unknown, key: "name" | "requireApproval", value: string | boolean): ToolEntryFields {
  const fields = entryFields(entry);
  if (value === false || value === "") delete fields[key];
  else fields[key] = value;
  return fields;
}

export function replaceAt(tools: unknown[], index: number, entry: unknown): unknown[] {
  return tools.map((each, at) => (at === index ? entry : each));
}

export function removeAt(tools: unknown[], index: number): unknown[] {
  return tools.filter((_, at) => at !== index);
}

/** The tools after setting one workflow entry's `directOutput` (left out when off, as an entry without it reads). */
export function withDirectOutput(tools: unknown[], index: number, on: boolean): unknown[] {
  return tools.map((entry, at) => {
    if (at !== index || entryType(entry) !== WORKFLOW_TYPE) return entry;
    const { directOutput: _dropped, ...rest } = entryFields(entry);
    return on ? { ...rest, directOutput: true } : rest;
  });
}

/**
 * The tools after switching one entry's `routeOnOutcome` (a tool id written as text becomes
 * `{ type }` to carry it; a list of names the entry already gives is kept when on).
 */
export function withRouteOnOutcome(tools: unknown[], index: number, on: boolean): unknown[] {
  return tools.map((entry, at) => {
    if (at !== index) return entry;
    const fields = entryFields(entry);
    if (!on) {
      delete fields.routeOnOutcome;
      return fields;
    }
    return Array.isArray(fields.routeOnOutcome) ? fields : { ...fields, routeOnOutcome: true };
  });
}

/** Names the model sees: providers accept letters, digits, `_` and `-`, 1 to 64 of them. */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** `base`, or `base_2`, `base_3`... whichever no entry uses yet. */
export function unusedName(tools: unknown[], base: string): string {
  const taken = new Set(
    tools.map((entry) => entryFields(entry).name).filter((name): name is string => typeof name === "string"),
  );
  if (!taken.has(base)) return base;
  let number = 2;
  while (taken.has(`${base}_${number}`)) number += 1;
  return `${base}_${number}`;
}

/** A built-in tool as the menu adds it. */
export function builtinEntry(type: string): ToolEntryFields {
  return { type };
}

/** One tool of an MCP server: the entry offers that tool only, so it can be routed on and approved alone. */
export function mcpEntry(server: string, tool: string): ToolEntryFields {
  return { type: MCP_TYPE, params: { server, tools: [tool] } };
}

/** Every tool the server lists when the agent runs. */
export function mcpServerEntry(server: string): ToolEntryFields {
  return { type: MCP_TYPE, params: { server } };
}

/** "Summarise Ticket!" -> "summarise_ticket": a name the model may see; "tool" when nothing usable is left. */
export function toolNameFrom(label: string): string {
  const name = label
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "")
    .slice(0, 64);
  return name || "tool";
}

/** Another workflow as a tool, named after it so routing on its outcome can name it. */
export function workflowEntry(tools: unknown[], workflow: { id: string; name: string }): ToolEntryFields {
  return {
    type: WORKFLOW_TYPE,
    name: unusedName(tools, toolNameFrom(workflow.name)),
    params: { workflowId: workflow.id },
  };
}

export const NEW_FUNCTION_CODE = `// The model's arguments are services.inputs; what you return is the tool's answer.
const { text } = services.inputs;
return { length: text.length };`;

/** A custom function tool: a name, a description, its parameters as a JSON Schema, and sandboxed code. */
export function functionEntry(tools: unknown[]): ToolEntryFields {
  return {
    type: RUN_FUNCTION_TYPE,
    name: unusedName(tools, "my_function"),
    params: {
      description: "",
      parameters: {
        type: "object",
        properties: { text: { type: "string", description: "The text to measure" } },
        required: ["text"],
        additionalProperties: false,
      },
      code: NEW_FUNCTION_CODE,
    },
  };
}

/** What is wrong with an entry's own fields (and its type's required params), for the card to show before saving. */
export function entryProblems(
  entry: unknown,
  declared: ReadonlyArray<{ name: string; label: string; required?: boolean }> = [],
): string[] {
  const fields = entryFields(entry);
  const type = entryType(entry);
  const params = entryParams(entry);
  const problems: string[] = [];
  if (typeof fields.name === "string" && !TOOL_NAME_PATTERN.test(fields.name)) {
    problems.push(`The name "${fields.name}" may hold only letters, digits, _ and - (at most 64)`);
  }
  if (type === RUN_FUNCTION_TYPE) {
    if (typeof fields.name !== "string" || !fields.name) problems.push("A function tool needs a name");
    if (typeof params.code !== "string" || !params.code.trim()) problems.push("A function tool needs code");
  }
  // A list under the plural name (`knowledgeBaseIds`, as the seed also writes) gives a required `knowledgeBaseId` too.
  for (const param of declared) {
    if (param.required && isEmpty(params[param.name]) && isEmpty(params[`${param.name}s`]))
      problems.push(`${param.label} is required`);
  }
  if (type === MCP_TYPE && typeof params.server !== "string") problems.push("Choose an MCP server");
  if (type === WORKFLOW_TYPE && typeof params.workflowId !== "string") problems.push("Choose a workflow");
  return problems;
}

/** Params each grouped type's own card edits (its declared params aside). */
const EDITED_BY_CARD: Record<string, readonly string[]> = {
  [RUN_FUNCTION_TYPE]: ["description", "parameters", "code"],
  [MCP_TYPE]: ["server", "tools"],
  [WORKFLOW_TYPE]: ["workflowId", "inputs"],
};

/**
 * Params an entry holds that its card has no input for (written as JSON, or by an older
 * version): named on the card so nothing the agent uses is hidden.
 */
export function paramsWithoutInput(entry: unknown, declared: ReadonlyArray<{ name: string }> = []): string[] {
  const shown = new Set([...declared.map((param) => param.name), ...(EDITED_BY_CARD[entryType(entry)] ?? [])]);
  return Object.keys(entryParams(entry)).filter((name) => !shown.has(name));
}
