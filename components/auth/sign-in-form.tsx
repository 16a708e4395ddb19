"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { api } from "@/contract";
import { AuthCard, AuthField, FormError } from "./auth-card";
import { messageOf } from "./messages";

/** Sign-in with email and password; `next` is where to go afterwards (a path on this site). */
export function SignInForm({ next }: { next: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    setPending(true);
    try {
      await api.auth.signIn({
        email: String(form.get("email") ?? "").trim(),
        password: String(form.get("password") ?? ""),
      });
      router.replace(next);
      router.refresh();
    } catch (failure) {
      setError(messageOf(failure, "Could not sign in"));
      setPending(false);
    }
  }

  return (
    <AuthCard title="Sign in" intro="Use the email and password of your Trellis account.">
      <form onSubmit={(event) => void submit(event)} aria-label="Sign in">
        <FormError message={error} />
        <AuthField label="Email" name="email" type="email" autoComplete="username" autoFocus />
        <AuthField label="Password" name="password" type="password" autoComplete="current-password" />
        <button type="submit" className="btn-primary w-full justify-center" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <p className="mt-4 text-xs text-slate-500">No account? Ask an admin of this Trellis to invite you.</p>
    </AuthCard>
  );
}
