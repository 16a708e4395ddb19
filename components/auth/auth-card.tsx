import { Workflow } from "lucide-react";
import type { ReactNode } from "react";

/** The frame of the setup and sign-in pages: the app's mark, a title, a line of help, the form. */
export function AuthCard({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <main className="flex min-h-full items-center justify-center px-6 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-6 flex items-center gap-2 text-lg font-semibold">
          <Workflow className="text-indigo-600" aria-hidden /> Trellis
        </div>
        <section className="rounded border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-xl font-semibold">{title}</h1>
          <p className="mt-1 mb-5 text-sm text-slate-600">{intro}</p>
          {children}
        </section>
      </div>
    </main>
  );
}

/** A labelled input of the auth forms. */
export function AuthField(props: {
  label: string;
  name: string;
  type?: string;
  autoComplete: string;
  hint?: string;
  autoFocus?: boolean;
  maxLength?: number;
}) {
  const hintId = props.hint ? `${props.name}-hint` : undefined;
  return (
    <label className="mb-4 block text-sm">
      <span className="mb-1 block font-medium text-slate-700">{props.label}</span>
      <input
        className="w-full rounded border border-slate-300 px-2 py-1.5 focus:border-indigo-500 focus:outline-none"
        name={props.name}
        type={props.type ?? "text"}
        autoComplete={props.autoComplete}
        autoFocus={props.autoFocus}
        maxLength={props.maxLength}
        aria-describedby={hintId}
        required
      />
      {props.hint && (
        <span id={hintId} className="mt-1 block text-xs text-slate-500">
          {props.hint}
        </span>
      )}
    </label>
  );
}

/** The form's error, read out when it appears. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      data-testid="auth-error"
      className="mb-4 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      {message}
    </p>
  );
}
