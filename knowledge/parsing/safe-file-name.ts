const MAX_NAME_LENGTH = 200;

/**
 * The name a document is stored and shown under: the base name only, so a client-sent name like
 * `../../etc/passwd.txt` becomes `passwd.txt`. Control characters are dropped and leading dots
 * removed so the name can never mean "this folder" or "the parent folder" anywhere it is used.
 */
export function safeFileName(raw: string): string {
  const lastSegment = raw.split(/[\\/]/).pop() ?? "";
  const cleaned = lastSegment
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .replace(/^\.+/, "")
    .trim();
  if (!cleaned) return "document";
  if (cleaned.length <= MAX_NAME_LENGTH) return cleaned;
  const dot = cleaned.lastIndexOf(".");
  const extension = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : "";
  return cleaned.slice(0, MAX_NAME_LENGTH - extension.length) + extension;
}
