import { isReservedName, isReservedRequestHeader } from "@/contract";
import {
  ConversionError,
  DocumentBuilder,
  objectAt,
  optionalString,
  requiredString,
  type ConvertedFile,
} from "./document-builder";
import { rewriteDollarReferences } from "./dollar-references";
import type { ImportOptions } from "./options";

/**
 * An AnythingLLM agent flow (seed 000): `{ name, description, active, steps: [{ type, config }] }`
 * (or the steps under `config`), run one step after another with flow variables. Each step
 * becomes a block in one chain; a variable a step stores (`responseVariable`, `resultVariable`) is
 * not copied anywhere: later `${name.path}` references read the block that produced it
 * (`<API searchResults.data.path>`), which is what the flow's variables held. The run answers, as
 * the flow does, with the variables the steps stored, or with a `directOutput` step's result.
 */

const API_METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function flowSteps(file: Record<string, unknown>): unknown[] | undefined {
  if (Array.isArray(file.steps)) return file.steps;
  const config = file.config;
  if (config && typeof config === "object" && Array.isArray((config as Record<string, unknown>).steps))
    return (config as { steps: unknown[] }).steps;
  return undefined;
}

export function convertAnythingLlmFlow(file: Record<string, unknown>, options: ImportOptions): ConvertedFile {
  const builder = new DocumentBuilder("anythingllm-flow");
  const steps = flowSteps(file)!;
  const stepsPath = Array.isArray(file.steps) ? "steps" : "config.steps";
  const model = options.model ?? "offline/echo";
  /** Flow variable → the Trellis reference (without brackets) holding its current value. */
  const producers = new Map<string, string>();
  /** Stored variables in the order set, for the run's answer. */
  const stored = new Map<string, string>();
  let info: { name?: string; description?: string } = {};

  const resolve = (root: string, rest: string) => {
    const base = producers.get(root);
    return base ? `<${base}${rest}>` : null;
  };
  const rewrite = (text: string, where: string) =>
    rewriteDollarReferences(text, resolve, (written) =>
      builder.skip(
        `${written} in ${where}`,
        "no earlier step sets this variable, so the text is kept as written (the flow leaves unknown names as they are too)",
      ),
    );

  const startIndex = steps.findIndex(
    (step) => step && typeof step === "object" && (step as { type?: unknown }).type === "start",
  );
  const startStep = startIndex === -1 ? undefined : objectAt(steps[startIndex], `${stepsPath}[${startIndex}]`);
  const inputs = startStep ? startInputs(startStep, `${stepsPath}[${startIndex}]`) : [];
  const start = builder.addBlock({ idHint: "start", type: "start", name: "Start", config: { inputs } });
  for (const input of inputs) producers.set(input.name, `start.${input.name}`);
  builder.map(
    inputs.length > 0
      ? `start variables (${inputs.map((input) => input.name).join(", ")}) → Start inputs, their values as defaults (a caller's arguments override them, as the flow's do)`
      : "start → Start block (no variables)",
  );

  let previous = start.id;
  let ended: string | null = null;
  steps.forEach((raw, index) => {
    const path = `${stepsPath}[${index}]`;
    const step = objectAt(raw, path);
    const type = requiredString(step.type, `${path}.type`);
    if (type === "start") return;
    if (ended) {
      builder.skip(
        `${path} (${type})`,
        `never runs: ${ended} returns its result directly (directOutput), which ends the flow`,
      );
      return;
    }
    const config = step.config === undefined ? {} : objectAt(step.config, `${path}.config`);
    const where = `${path}.config`;
    const variable = optionalString(
      config.resultVariable ?? config.responseVariable,
      `${where}.resultVariable`,
    )?.trim();
    if (type === "flowInfo") {
      info = {
        name: optionalString(config.name, `${where}.name`),
        description: optionalString(config.description, `${where}.description`),
      };
      builder.map(`${path} (flowInfo) → the workflow's name and description`);
      return;
    }
    if (type === "finish") {
      builder.map(`${path} (finish) → the end of the chain`);
      return;
    }
    let block: { id: string; name: string } | null = null;
    let outputPath = "";
    if (type === "apiCall") {
      block = builder.addBlock({
        idHint: `api_${variable ?? index}`,
        type: "api",
        name: `API ${variable ?? index}`,
        config: apiConfig(config, where, rewrite, builder),
      });
      outputPath = "data";
    } else if (type === "llmInstruction") {
      const instruction = requiredString(config.instruction, `${where}.instruction`);
      block = builder.addBlock({
        idHint: `llm_${variable ?? index}`,
        type: "agent",
        name: `LLM ${variable ?? index}`,
        config: { model, userPrompt: rewrite(instruction, where) },
      });
      outputPath = "content";
    } else if (type === "webScraping") {
      const url = requiredString(config.url, `${where}.url`);
      block = builder.addBlock({
        idHint: `web_${variable ?? index}`,
        type: "web",
        name: `Web ${variable ?? index}`,
        config: { url: rewrite(url, where) },
      });
      outputPath = "text";
    } else {
      builder.skip(
        `${path} (${type})`,
        `Trellis has no importer for AnythingLLM '${type}' steps; add the equivalent block by hand${variable ? ` (later references to \${${variable}} stay as text)` : ""}`,
      );
      return;
    }
    builder.connect(previous, block.id);
    previous = block.id;
    builder.map(
      `${path} (${type}) → ${describeBlock(type)} '${block.name}'${type === "llmInstruction" ? ` (model ${model})` : ""}`,
    );
    if (variable) {
      if (!IDENTIFIER.test(variable))
        throw new ConversionError(
          `${where}.resultVariable`,
          `${where}: the variable name '${variable}' is not a name (a letter or _ first, then letters, digits or _)`,
        );
      producers.set(variable, `${block.name}.${outputPath}`);
      stored.set(variable, `<${block.name}.${outputPath}>`);
      builder.map(`\${${variable}} → <${block.name}.${outputPath}>`);
    }
    if (config.directOutput === true) {
      const response = builder.addBlock({
        idHint: "direct_output",
        type: "response",
        name: "Direct Output",
        config: { data: `<${block.name}.${outputPath}>` },
      });
      builder.connect(block.id, response.id);
      builder.map(
        `${path} directOutput → Response block '${response.name}': the run answers with this step's result and stops`,
      );
      ended = `${path}`;
    }
  });

  if (!ended && stored.size > 0) {
    const response = builder.addBlock({
      idHint: "flow_variables",
      type: "response",
      name: "Flow Variables",
      config: { data: Object.fromEntries(stored) },
    });
    builder.connect(previous, response.id);
    builder.map(
      `the flow's result variables → Response block '${response.name}' answering { ${[...stored.keys()].join(", ")} }`,
    );
  }
  if (file.active === false)
    builder.skip(
      "active: false",
      "a Trellis workflow has no on/off switch; it is imported like any other (publish it as a tool when you want agents to call it)",
    );

  const name = optionalString(file.name, "name") ?? info.name ?? "AnythingLLM flow";
  const description = optionalString(file.description, "description") ?? info.description ?? "";
  return builder.build({ name, description });
}

function describeBlock(type: string): string {
  return type === "apiCall" ? "API block" : type === "llmInstruction" ? "Agent block" : "Web block";
}

function startInputs(step: Record<string, unknown>, path: string) {
  const config = step.config === undefined ? {} : objectAt(step.config, `${path}.config`);
  const variables = config.variables ?? [];
  if (!Array.isArray(variables))
    throw new ConversionError(`${path}.config.variables`, `${path}.config.variables must be a list`);
  const seen = new Set<string>();
  return variables.flatMap((raw, index) => {
    const where = `${path}.config.variables[${index}]`;
    const variable = objectAt(raw, where);
    const name = optionalString(variable.name, `${where}.name`)?.trim();
    if (!name) return [];
    if (!IDENTIFIER.test(name) || isReservedName(name))
      throw new ConversionError(
        `${where}.name`,
        `${where}.name: '${name}' cannot be a Trellis start input name (a letter or _ first, then letters, digits or _)`,
      );
    if (seen.has(name)) throw new ConversionError(`${where}.name`, `${where}.name: '${name}' is declared twice`);
    seen.add(name);
    const value = variable.value;
    const description = optionalString(variable.description, `${where}.description`);
    return [
      {
        name,
        type: "string" as const,
        ...(description ? { description } : {}),
        ...(value !== undefined && value !== null && value !== ""
          ? { default: typeof value === "string" ? value : JSON.stringify(value) }
          : {}),
      },
    ];
  });
}

function apiConfig(
  config: Record<string, unknown>,
  where: string,
  rewrite: (text: string, where: string) => string,
  builder: DocumentBuilder,
) {
  const url = requiredString(config.url, `${where}.url`);
  const method = (optionalString(config.method, `${where}.method`) ?? "GET").toUpperCase();
  if (!API_METHODS.has(method))
    throw new ConversionError(
      `${where}.method`,
      `${where}.method: '${method}' is not one of ${[...API_METHODS].join(", ")}`,
    );
  const headers: Record<string, string> = {};
  const rawHeaders = config.headers ?? [];
  if (!Array.isArray(rawHeaders))
    throw new ConversionError(`${where}.headers`, `${where}.headers must be a list of { key, value }`);
  rawHeaders.forEach((raw, index) => {
    const header = objectAt(raw, `${where}.headers[${index}]`);
    const key = optionalString(header.key, `${where}.headers[${index}].key`)?.trim();
    if (!key) return;
    if (isReservedRequestHeader(key)) {
      builder.skip(
        `${where}.headers[${index}] (${key})`,
        "the HTTP client sets this header itself; Trellis refuses it in an API block",
      );
      return;
    }
    headers[key] = rewrite(optionalString(header.value, `${where}.headers[${index}].value`) ?? "", where);
  });
  const result: Record<string, unknown> = { url: rewrite(url, where), method };
  if (Object.keys(headers).length > 0) result.headers = headers;
  const bodyType = optionalString(config.bodyType, `${where}.bodyType`) ?? "json";
  if (bodyType === "form" && Array.isArray(config.formData) && config.formData.length > 0) {
    const form: Record<string, string> = {};
    config.formData.forEach((raw, index) => {
      const field = objectAt(raw, `${where}.formData[${index}]`);
      const key = optionalString(field.key, `${where}.formData[${index}].key`)?.trim();
      if (key) form[key] = rewrite(optionalString(field.value, `${where}.formData[${index}].value`) ?? "", where);
    });
    // The API block sends these URL-encoded, as the flow did.
    result.bodyType = "form";
    result.body = form;
  } else if (typeof config.body === "string" && config.body.trim() !== "" && method !== "GET" && method !== "HEAD") {
    const body = rewrite(config.body, where);
    result.body = bodyType === "json" ? parsedOr(body) : body;
  }
  return result;
}

/** A JSON body as an object when it parses; else the text as written (a reference outside quotes, say). */
function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
