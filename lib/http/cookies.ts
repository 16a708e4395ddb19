/** The value of the request's cookie `name` (URL-decoded), or undefined when it has none or it does not decode. */
export function readCookie(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      // A malformed %-sequence: no value this server set, so none at all.
      return undefined;
    }
  }
  return undefined;
}
