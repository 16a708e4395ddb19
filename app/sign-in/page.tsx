import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeReturnPath } from "@/contract";
import { currentSession, ownerExists } from "@/lib/auth";
import { signInProviders } from "@/lib/sso";

export const metadata: Metadata = { title: "Sign in · Trellis" };
export const dynamic = "force-dynamic";

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; error?: string | string[]; error_description?: string | string[] }>;
}) {
  const query = await searchParams;
  const requested = query.next;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const next = safeReturnPath(Array.isArray(requested) ? requested[0] : requested);
  if (!(await ownerExists())) redirect("/setup");
  if (await currentSession(await headers())) redirect(next);
  return (
    <SignInForm
      next={next}
      providers={await signInProviders()}
      providerError={
        first(query.error) ? { code: first(query.error)!, description: first(query.error_description) } : null
      }
    />
  );
}
