import { ConversionError, type DocumentBuilder } from "./document-builder";
import { expressionProblem } from "./mcp-bridge-rules";

/**
 * The config of one Sim block (seed 003's Agent, Router, Evaluator and Knowledge handlers, and the
 * core blocks beside them) from its `subBlocks` values. Each mapper answers the Trellis type and
 * config, and reports through the builder what of the block it could not carry over.
 */

export type SubBlockValues = Record<string, unknown>;

export interface SimBlockContext {
  builder: DocumentBuilder;
  /** `state.blocks.<id>`, for messages. */
  path: string;
  name: string;
  values: SubBlockValues;
  data: Record<string, unknown>;
  /** The model every model-using block gets, when the caller chose one. */
  model?: string;
}

export interface MappedSimBlock {
  type: string;
  config: Record<string, unknown>;
  /** Sim's condition handle id → Trellis branch id, for the edges. */
  branchIds?: Map<string, string>;
}

const text = (value: unknown) =>
  typeof value === "string" ? value : value === undefined || value === null ? undefined : String(value);
const number = (value: unknown) => {
  const parsed =
    typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(parsed) ? parsed : undefined;
};

/** Sim's model names (`gpt-4o`, `claude-3-7-sonnet`) as Trellis model ids (`openai/gpt-4o`). */
export function trellisModel(value: unknown, chosen: string | undefined): string {
  if (chosen) return chosen;
  const model = text(value)?.trim();
  if (!model) return "offline/echo";
  if (model.includes("/")) return model;
  if (/^(gpt-|o\d|chatgpt)/i.test(model)) return `openai/${model}`;
  if (/^claude/i.test(model)) return `anthropic/${model}`;
  if (/^gemini/i.test(model)) return `google/${model}`;
  return `openai-compatible/${model}`;
}

/** JSON text or a value: what Sim stores for tables, schemas and bodies. */
function parsed(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  if (!trimmed) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    // Sim's JSON editors let references stand unquoted (`{"answer": <agent.content>}`).
    try {
      return JSON.parse(trimmed.replace(/(:\s*|\[\s*|,\s*)(<[^<>"]+>)/g, '$1"$2"'));
    } catch {
      return value;
    }
  }
}

/** A Sim table (`[{ cells: { Key, Value } }]`) as a record. */
function table(value: unknown): Record<string, string> {
  const rows = parsed(value);
  const result: Record<string, string> = {};
  if (!Array.isArray(rows)) return result;
  for (const row of rows) {
    const cells = (row as { cells?: Record<string, unknown> })?.cells ?? {};
    const key = text(cells.Key ?? cells.key)?.trim();
    if (key) result[key] = text(cells.Value ?? cells.value) ?? "";
  }
  return result;
}

export function mapStart(context: SimBlockContext): MappedSimBlock {
  const format = parsed(context.values.inputFormat);
  const inputs = Array.isArray(format)
    ? format.flatMap((field: Record<string, unknown>) => {
        const name = text(field?.name)?.trim();
        if (!name) return [];
        const type = ["string", "number", "boolean", "object", "array"].includes(String(field.type))
          ? String(field.type)
          : "string";
        return [{ name, type, ...(field.value !== undefined && field.value !== "" ? { default: field.value } : {}) }];
      })
    : [];
  return { type: "start", config: { inputs } };
}

export function mapAgent(context: SimBlockContext): MappedSimBlock {
  const { values } = context;
  const config: Record<string, unknown> = {
    model: trellisModel(values.model, context.model),
    userPrompt: text(values.userPrompt ?? values.context) ?? "",
  };
  const systemPrompt = text(values.systemPrompt);
  if (systemPrompt) config.systemPrompt = systemPrompt;
  const temperature = number(values.temperature);
  if (temperature !== undefined) config.temperature = Math.min(2, Math.max(0, temperature));
  const maxTokens = number(values.maxTokens);
  if (maxTokens !== undefined && maxTokens > 0) config.maxTokens = Math.round(maxTokens);
  const responseFormat = parsed(values.responseFormat);
  if (responseFormat && typeof responseFormat === "object") config.responseFormat = responseFormat;
  const memories = values.memories;
  if (typeof memories === "string" && memories.trim()) config.memories = memories;
  const tools = parsed(values.tools);
  if (Array.isArray(tools) && tools.length > 0) {
    const names = tools
      .map((tool: Record<string, unknown>) => text(tool?.title ?? tool?.toolId ?? tool?.type) ?? "tool")
      .join(", ");
    context.builder.skip(
      `${context.path}.subBlocks.tools (${names})`,
      "Sim's tools are its own integrations and custom tools; add the Trellis tools this agent needs in its Tools field",
    );
  }
  return { type: "agent", config };
}

export function mapRouter(context: SimBlockContext): MappedSimBlock {
  const prompt = text(context.values.prompt ?? context.values.context) ?? "";
  if (context.values.routes !== undefined) {
    context.builder.skip(
      `${context.path}.subBlocks.routes`,
      "route descriptions are not carried over: a Trellis router chooses among the blocks its edges reach, described by their names and prompts",
    );
  }
  return {
    type: "router",
    config: {
      model: trellisModel(context.values.model, context.model),
      prompt,
      temperature: number(context.values.temperature) ?? 0,
    },
  };
}

export function mapEvaluator(context: SimBlockContext): MappedSimBlock {
  const metrics = parsed(context.values.metrics);
  return {
    type: "evaluator",
    config: {
      model: trellisModel(context.values.model, context.model),
      content: text(context.values.content) ?? "",
      metrics: Array.isArray(metrics)
        ? metrics.map((metric: Record<string, unknown>) => ({
            name: text(metric?.name) ?? "",
            description: text(metric?.description) ?? "",
            range: {
              min: number((metric?.range as Record<string, unknown>)?.min) ?? 0,
              max: number((metric?.range as Record<string, unknown>)?.max) ?? 10,
            },
          }))
        : [],
    },
  };
}

export function mapKnowledge(context: SimBlockContext): MappedSimBlock {
  const { values } = context;
  const operation = text(values.operation) ?? "search";
  if (operation !== "search")
    context.builder.skip(
      `${context.path}.subBlocks.operation (${operation})`,
      "only searching maps to a Knowledge block; upload documents to a Trellis knowledge base instead",
    );
  const raw = values.knowledgeBaseIds ?? values.knowledgeBaseId;
  const ids = (Array.isArray(raw) ? raw.map(String) : (text(raw) ?? "").split(","))
    .map((id) => id.trim())
    .filter(Boolean);
  if (ids.length > 0)
    context.builder.skip(
      `${context.path}.subBlocks.knowledgeBaseId (${ids.join(", ")})`,
      "these are Sim's knowledge bases; choose Trellis knowledge bases in the block",
    );
  if (values.tagFilters !== undefined && values.tagFilters !== null && values.tagFilters !== "")
    context.builder.skip(`${context.path}.subBlocks.tagFilters`, "Sim's tag filters have no Trellis equivalent");
  const topK = number(values.topK);
  return {
    type: "knowledge",
    config: {
      knowledgeBaseIds: [],
      query: text(values.query) ?? "",
      ...(topK ? { topK: Math.min(100, Math.max(1, Math.round(topK))) } : {}),
    },
  };
}

export function mapCondition(context: SimBlockContext): MappedSimBlock {
  const conditions = parsed(context.values.conditions);
  if (!Array.isArray(conditions) || conditions.length === 0)
    throw new ConversionError(
      `${context.path}.subBlocks.conditions`,
      `${context.path}.subBlocks.conditions must list the block's conditions`,
    );
  const branchIds = new Map<string, string>();
  const used = new Set<string>();
  const branches = conditions.map((condition: Record<string, unknown>, index) => {
    const sourceId = text(condition?.id) ?? String(index);
    const title = (text(condition?.title) ?? "").toLowerCase();
    let id = sourceId.replace(/[^A-Za-z0-9_-]+/g, "_").slice(-64) || `branch_${index}`;
    while (used.has(id)) id = `${id.slice(0, 60)}_${index}`;
    used.add(id);
    branchIds.set(sourceId, id);
    if (title === "else") return { id, label: "else" };
    return {
      id,
      label: title || undefined,
      expression: simExpression(
        text(condition?.value) ?? "",
        `${context.path}.subBlocks.conditions[${index}]`,
        context.builder,
      ),
    };
  });
  return { type: "condition", config: { branches }, branchIds };
}

/** Sim conditions are JavaScript; Trellis's language is smaller. `x.includes(y)` becomes `contains(x, y)`; what still does not parse is kept and reported. */
function simExpression(expression: string, where: string, builder: DocumentBuilder): string {
  const candidates = [
    expression,
    expression.replace(
      /(<[^<>]+>|'[^']*'|"[^"]*"|(?<![\w.])[A-Za-z_][\w.]*)\.includes\(([^()]*)\)/g,
      "contains($1, $2)",
    ),
  ];
  for (const candidate of candidates) if (expressionProblem(candidate) === null) return candidate;
  builder.skip(
    `${where} (${expression})`,
    "this JavaScript is not in Trellis's expression language; it is kept as written and the workflow lists it as an issue until it is rewritten",
  );
  return expression;
}

export function mapFunction(context: SimBlockContext): MappedSimBlock {
  const language = text(context.values.language) ?? "javascript";
  if (language !== "javascript" && language !== "js")
    context.builder.skip(
      `${context.path}.subBlocks.language (${language})`,
      "Trellis Function blocks run JavaScript only; the code is kept as written",
    );
  return { type: "function", config: { code: text(context.values.code) ?? "" } };
}

export function mapApi(context: SimBlockContext): MappedSimBlock {
  const { values } = context;
  let url = text(values.url) ?? "";
  const params = table(values.params);
  if (Object.keys(params).length > 0) {
    const query = Object.entries(params)
      .map(([key, value]) => `${encodeURIComponent(key)}=${value}`)
      .join("&");
    url = `${url}${url.includes("?") ? "&" : "?"}${query}`;
  }
  const method = (text(values.method) ?? "GET").toUpperCase();
  const config: Record<string, unknown> = {
    url,
    method: ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"].includes(method) ? method : "GET",
  };
  const headers = table(values.headers);
  if (Object.keys(headers).length > 0) config.headers = headers;
  const body = parsed(values.body);
  if (body !== undefined && body !== "") config.body = body;
  return { type: "api", config };
}

export function mapResponse(context: SimBlockContext): MappedSimBlock {
  const { values } = context;
  let data: unknown = parsed(values.data);
  if (values.dataMode === "structured" || (data === undefined && values.builderData !== undefined)) {
    const fields = parsed(values.builderData);
    data = Array.isArray(fields)
      ? Object.fromEntries(
          fields.filter((field) => text(field?.name)).map((field) => [text(field.name)!, field.value ?? null]),
        )
      : data;
  }
  if (values.status !== undefined && values.status !== null && values.status !== "")
    context.builder.skip(`${context.path}.subBlocks.status`, "a run's answer has no HTTP status of its own in Trellis");
  if (Object.keys(table(values.headers)).length > 0)
    context.builder.skip(`${context.path}.subBlocks.headers`, "a run's answer has no headers of its own in Trellis");
  return { type: "response", config: data === undefined ? {} : { data } };
}

export function mapVariables(context: SimBlockContext): MappedSimBlock {
  const rows = parsed(context.values.variables);
  const assignments = Array.isArray(rows)
    ? rows.flatMap((row: Record<string, unknown>) => {
        const name = text(row?.variableName ?? row?.name)?.trim();
        return name ? [{ name, value: row.value ?? "" }] : [];
      })
    : [];
  return { type: "variables", config: { assignments } };
}

export function mapLoop(context: SimBlockContext, loop: Record<string, unknown> | undefined): MappedSimBlock {
  const data = { ...loop, ...context.data };
  const kind = text(data.loopType) ?? "for";
  const count = number(data.count ?? data.iterations) ?? 5;
  if (kind === "forEach")
    return {
      type: "loop",
      config: { kind: "forEach", collection: parsed(data.collection ?? data.forEachItems) ?? [] },
    };
  if (kind === "while" || kind === "doWhile") {
    const condition = simExpression(
      text(data.whileCondition ?? data.doWhileCondition) ?? "false",
      `${context.path}.data.whileCondition`,
      context.builder,
    );
    if (kind === "doWhile")
      context.builder.skip(
        `${context.path}.data.loopType (doWhile)`,
        "Trellis has while loops only: the condition is checked before the first iteration too",
      );
    return { type: "loop", config: { kind: "while", condition, maxIterations: Math.max(1, count) } };
  }
  return { type: "loop", config: { kind: "for", count } };
}

export function mapParallel(context: SimBlockContext, parallel: Record<string, unknown> | undefined): MappedSimBlock {
  const data = { ...parallel, ...context.data };
  if (text(data.parallelType) === "collection")
    return {
      type: "parallel",
      config: { kind: "collection", collection: parsed(data.collection ?? data.distribution) ?? [] },
    };
  return { type: "parallel", config: { kind: "count", count: number(data.count) ?? 5 } };
}
