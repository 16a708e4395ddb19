import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { ownerExists } from "@/lib/auth";

export const metadata: Metadata = { title: "Set up · Trellis" };
export const dynamic = "force-dynamic";

/** First start: create the owner account. Once it exists, this page only leads to sign-in. */
export default async function SetupPage() {
  if (await ownerExists()) redirect("/sign-in");
  return <SetupForm />;
}
