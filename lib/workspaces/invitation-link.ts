import "server-only";
import { addressedUrl } from "@/lib/auth";

/**
 * The page an invitee opens: at TRELLIS_PUBLIC_URL when set, else at the name and scheme the
 * admin's browser used (the checked Host header, as better-auth's requests are rebuilt).
 */
export function invitationLink(request: Request, token: string, publicUrl?: string): string {
  const base = publicUrl ? new URL(publicUrl) : addressedUrl(request);
  return new URL(`/invite/${encodeURIComponent(token)}`, base).toString();
}
