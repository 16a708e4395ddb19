import "server-only";

/**
 * The page an invitee opens: at TRELLIS_PUBLIC_URL when set, else at the name and scheme the
 * admin's browser used (the Host header, checked by the request guard before this runs).
 */
export function invitationLink(request: Request, token: string, publicUrl?: string): string {
  const base = publicUrl ? new URL(publicUrl) : new URL(request.url);
  if (!publicUrl) {
    const host = request.headers.get("host");
    if (host) base.host = host;
    if (request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https") base.protocol = "https:";
  }
  return new URL(`/invite/${encodeURIComponent(token)}`, base).toString();
}
