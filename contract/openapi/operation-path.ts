import type { ApiOperation } from "./operation";

/**
 * An operation's URL path with its parameters filled in, each encoded as one segment; a `rest`
 * parameter (a model id) keeps its slashes as separators: `/api/prices/ollama/llama3.2`.
 */
export function fillPath(operation: Pick<ApiOperation, "path" | "parameters">, params: Record<string, string>): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.path}: no value for {${name}}`);
    const rest = operation.parameters?.some((parameter) => parameter.name === name && parameter.rest);
    return rest ? value.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(value);
  });
}
