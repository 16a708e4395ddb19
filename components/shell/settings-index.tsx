import Link from "next/link";
import { SETTINGS_PAGES } from "./navigation";

/** The Settings page: each of the workspace's settings pages, with what it holds. */
export function SettingsIndex() {
  return (
    <main className="mx-auto max-w-4xl px-6 py-10">
      <ul className="grid gap-3 sm:grid-cols-2" aria-label="Settings pages">
        {SETTINGS_PAGES.map(({ href, label, description, icon: Icon }) => (
          <li key={href}>
            <Link
              href={href}
              className="flex h-full gap-3 rounded border border-slate-200 bg-white p-4 hover:border-indigo-300 hover:bg-slate-50"
            >
              <Icon className="mt-0.5 shrink-0 text-indigo-600" size={18} aria-hidden />
              <span>
                <span className="block font-medium text-slate-900">{label}</span>
                <span className="block text-sm text-slate-600">{description}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </main>
  );
}
