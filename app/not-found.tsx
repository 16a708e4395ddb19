import { Compass } from "lucide-react";
import Link from "next/link";

export const metadata = { title: "Page not found · Trellis" };

/** Any address the app has no page for (and a page that says its thing does not exist): a way home. */
export default function NotFound() {
  return (
    <main className="flex min-h-screen items-center justify-center px-6">
      <div className="max-w-md space-y-4 text-center">
        <Compass className="mx-auto text-indigo-600" size={32} aria-hidden />
        <h1 className="text-2xl font-semibold text-slate-900">Page not found</h1>
        <p className="text-slate-600">
          There is nothing at this address. It may have been moved or deleted, or the link may be mistyped.
        </p>
        <Link href="/" className="btn-primary">
          Go to your workflows
        </Link>
      </div>
    </main>
  );
}
