import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeReturnPath } from "@/contract";
import { currentSession, ownerExists } from "@/lib/auth";

export const metadata: Metadata = { title: "Sign in · Trellis" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const requested = (await searchParams).next;
  const next = safeReturnPath(Array.isArray(requested) ? requested[0] : requested);
  if (!(await ownerExists())) redirect("/setup");
  if (await currentSession(await headers())) redirect(next);
  return <SignInForm next={next} />;
}
