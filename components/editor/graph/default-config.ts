import type { BlockDefinition } from "@/blocks";

/**
 * The config a fresh block starts with: every field whose schema has a default gets it; required
 * fields without one stay empty so inline validation points at them.
 */
export function defaultConfig(definition: BlockDefinition): Record<string, unknown> {
  const whole = definition.configSchema.safeParse({});
  if (whole.success && isRecord(whole.data)) return whole.data;
  const shape = objectShape(definition.configSchema);
  const config: Record<string, unknown> = {};
  for (const [key, fieldSchema] of Object.entries(shape)) {
    const parsed = fieldSchema.safeParse(undefined);
    if (parsed.success && parsed.data !== undefined) config[key] = parsed.data;
  }
  return config;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type Parser = { safeParse(value: unknown): { success: boolean; data?: unknown } };

function objectShape(schema: unknown): Record<string, Parser> {
  const shape = (schema as { shape?: unknown }).shape;
  return isRecord(shape) ? (shape as Record<string, Parser>) : {};
}
