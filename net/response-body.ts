import { describeJsonHazard, findJsonHazard } from "@/contract";
import { BlockExecutionError } from "@/core";

export function isJsonContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/(?:[\w.+-]+\+)?json\b|^text\/json\b/i.test(contentType.trim());
}

/**
 * Parses JSON when the content type says so; a body that claims JSON but is not is a clear error,
 * and so is one nested past MAX_JSON_DEPTH, which the run's own code (references, redaction,
 * storage) could not walk without overflowing the stack.
 */
export function decodeBody(body: Buffer, contentType: string | undefined, host: string): unknown {
  const text = body.toString("utf8");
  if (!isJsonContentType(contentType) || text.trim() === "") return text;
  const hazard = findJsonHazard(text);
  if (hazard)
    throw new BlockExecutionError(`The JSON from ${host} ${describeJsonHazard(hazard)}`, { code: "invalid_response" });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BlockExecutionError(`The response from ${host} says it is JSON but does not parse as JSON`, {
      code: "invalid_response",
    });
  }
}
