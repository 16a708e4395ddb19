import { z } from "zod";

/**
 * Names users may not give to inputs, variables and fields (docs/CONTRACT.md section 5, "Reserved
 * names"). Every JavaScript object already has them: assigning `__proto__` replaces the object's
 * prototype instead of adding a field (zod and the start block dropped such an input without a
 * word), and `constructor` or `prototype` read back as the built-in value wherever a lookup is not
 * limited to own fields.
 */
export const RESERVED_NAMES = ["__proto__", "constructor", "prototype"] as const;

export const RESERVED_NAME_MESSAGE =
  "is a reserved name (__proto__, constructor and prototype belong to every JavaScript object); choose another name";

export function isReservedName(name: string): boolean {
  return (RESERVED_NAMES as readonly string[]).includes(name);
}

/** The own keys of a value that are reserved names (none when it is not an object). */
export function reservedKeysOf(value: unknown): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [];
  return Object.keys(value).filter(isReservedName);
}

/** A string schema that also refuses the reserved names: `reservedName(z.string().min(1))`. */
export function reservedName<Schema extends z.ZodType<string>>(schema: Schema) {
  return schema.refine((name) => !isReservedName(name), { message: RESERVED_NAME_MESSAGE });
}

/**
 * A record schema whose keys may not be reserved names. The keys are checked on the value as
 * sent, before the record is parsed: zod's record leaves `__proto__` out of what it returns, so
 * a check after parsing would never see it.
 */
export function withoutReservedKeys<Output extends Record<string, unknown>, Input>(schema: z.ZodType<Output, Input>) {
  return z
    .custom<Input>()
    .superRefine((value, context) => {
      for (const key of reservedKeysOf(value))
        context.addIssue({ code: "custom", path: [key], message: RESERVED_NAME_MESSAGE, input: value });
    })
    .pipe(schema);
}

/**
 * Request headers an API block (and every outbound request) may not set, because the client sets
 * them from the request itself and a second value changes where or how it is sent:
 * - `host`: undici would send it and derive the TLS server name from it, so a request vetted
 *   for one host would reach another virtual host or certificate on the same address.
 * - `content-length`, `transfer-encoding`: the body's framing, computed from the body; a
 *   different value fails the request or, through a proxy, smuggles a second one.
 * - `connection`, `keep-alive`, `proxy-connection`, `te`, `trailer`, `upgrade`: hop-by-hop
 *   (RFC 9110 section 7.6.1), they manage the client's own connection; undici refuses several.
 * - `expect`: undici does not support it and throws.
 */
export const RESERVED_REQUEST_HEADERS = [
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "upgrade",
  "expect",
] as const;

export function isReservedRequestHeader(name: string): boolean {
  return (RESERVED_REQUEST_HEADERS as readonly string[]).includes(name.trim().toLowerCase());
}

export const RESERVED_HEADER_MESSAGE = "is set by Trellis from the request itself and cannot be overridden";
