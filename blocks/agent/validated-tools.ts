import { asSchema, jsonSchema, type ToolSet } from "ai";
import { z } from "zod";

/**
 * The AI SDK checks a tool call's arguments only when the tool's schema can validate; a plain
 * JSON Schema (`jsonSchema(...)`, as the built-in, workflow and MCP tools declare theirs) cannot,
 * so a call with bad arguments would reach `execute`. This gives each such tool a validator built
 * from its JSON Schema: the SDK then refuses the call, never runs the tool, and sends the model
 * the validation error as the call's result.
 */

/** "expression: expected string, received number; (input): ..." for the model to correct itself. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(input)"}: ${issue.message}`)
    .join("; ");
}

function validatorOf(schema: ReturnType<typeof asSchema>) {
  let compiled: Promise<z.ZodType | null> | undefined;
  const compile = async () => {
    try {
      return z.fromJSONSchema((await schema.jsonSchema) as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      // A schema zod cannot read (a rare keyword of an MCP server's) is not checked here; the tool still checks its own input.
      return null;
    }
  };
  return async (value: unknown) => {
    compiled ??= compile();
    const validator = await compiled;
    if (!validator) return { success: true as const, value };
    const parsed = validator.safeParse(value);
    // The call keeps its own arguments: a parsed copy could drop keys the schema leaves open.
    return parsed.success
      ? { success: true as const, value }
      : { success: false as const, error: new Error(describeIssues(parsed.error)) };
  };
}

export function withInputValidation(tools: ToolSet): ToolSet {
  const checked: ToolSet = {};
  for (const [name, definition] of Object.entries(tools)) {
    const schema = definition.inputSchema === undefined ? undefined : asSchema(definition.inputSchema);
    checked[name] =
      schema && !schema.validate
        ? ({
            ...definition,
            inputSchema: jsonSchema(() => schema.jsonSchema, { validate: validatorOf(schema) }),
          } as typeof definition)
        : definition;
  }
  return checked;
}
