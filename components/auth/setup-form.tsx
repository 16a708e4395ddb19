"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { PASSWORD_MAX_LENGTH, PASSWORD_RULE, api, passwordProblem } from "@/contract";
import { AuthCard, AuthField, FormError } from "./auth-card";
import { messageOf } from "./messages";

/** First start: the one form that creates the owner account, signs the owner in and opens the app. */
export function SetupForm() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    const problem = passwordProblem(password);
    if (problem) return setError(problem);
    setError(null);
    setPending(true);
    try {
      await api.auth.signUp({ name, email, password });
      router.replace("/");
      router.refresh();
    } catch (failure) {
      setError(messageOf(failure, "Could not create the account"));
      setPending(false);
    }
  }

  return (
    <AuthCard title="Set up Trellis" intro="Create the owner account. You can invite your team once you are in.">
      <form onSubmit={(event) => void submit(event)} aria-label="Create the owner account">
        <FormError message={error} />
        <AuthField label="Name" name="name" autoComplete="name" autoFocus maxLength={200} />
        <AuthField label="Email" name="email" type="email" autoComplete="email" />
        <AuthField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_RULE}
          maxLength={PASSWORD_MAX_LENGTH}
        />
        <button type="submit" className="btn-primary w-full justify-center" disabled={pending}>
          {pending ? "Creating…" : "Create account"}
        </button>
      </form>
    </AuthCard>
  );
}
