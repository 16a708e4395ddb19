"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { api, type SignInProvider } from "@/contract";
import { AuthCard, AuthField, FormError } from "./auth-card";
import { messageOf } from "./messages";

/** What a provider's refused sign-in (`/sign-in?error=`) says to the person. */
function providerErrorText(error: { code: string; description?: string | undefined }): string {
  if (error.description) return error.description;
  if (error.code === "unable_to_get_user_info")
    return "The identity provider's answer could not be verified, so you were not signed in. Try again, or ask an admin.";
  if (error.code === "state_mismatch") return "That sign-in link was used already or has expired: start again.";
  return `The identity provider's sign-in did not complete (${error.code}).`;
}

/**
 * Sign-in with email and password, and with each workspace's identity provider; `next` is where
 * to go afterwards (a path on this site).
 */
export function SignInForm({
  next,
  providers = [],
  providerError = null,
}: {
  next: string;
  providers?: SignInProvider[];
  providerError?: { code: string; description?: string | undefined } | null;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(providerError ? providerErrorText(providerError) : null);
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

  async function withProvider(provider: SignInProvider) {
    setError(null);
    setPending(true);
    try {
      const { url } = await api.auth.signInWithProvider(provider.providerId, next);
      window.location.assign(url);
    } catch (failure) {
      setError(messageOf(failure, `Could not sign in with ${provider.name}`));
      setPending(false);
    }
  }

  return (
    <AuthCard title="Sign in" intro="Use the email and password of your Trellis account.">
      {providers.length > 0 && (
        <div className="mb-4 space-y-2">
          {providers.map((provider) => (
            <button
              key={provider.providerId}
              type="button"
              className="btn-secondary w-full justify-center"
              disabled={pending}
              onClick={() => void withProvider(provider)}
            >
              Sign in with {provider.name}
            </button>
          ))}
        </div>
      )}
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
