import type { Metadata } from "next";
import { InvitationPage } from "@/components/auth/invitation-page";

export const metadata: Metadata = { title: "Invitation · Trellis" };
export const dynamic = "force-dynamic";

/**
 * An invitation link: public, since the invitee may have no account yet (the token is the
 * credential). The page previews the invitation, then joins or creates the account.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <InvitationPage token={token} />;
}
