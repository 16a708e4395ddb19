import { ChevronRight } from "lucide-react";
import Link from "next/link";
import { Fragment } from "react";

/** One step of the trail: a page above this one (with its link), or this page (the last, without one). */
export interface Crumb {
  label: string;
  href?: string;
}

/** Where the page sits: "Settings / Secrets". The last crumb is the page's own heading. */
export function Breadcrumbs({ items }: { items: readonly Crumb[] }) {
  const above = items.slice(0, -1);
  const current = items.at(-1);
  return (
    <nav aria-label="Breadcrumb" className="min-w-0">
      <ol className="flex items-center gap-1.5 text-sm">
        {above.map((crumb) => (
          <Fragment key={crumb.label}>
            <li className="text-slate-500">
              {crumb.href ? (
                <Link href={crumb.href} className="hover:text-slate-900 hover:underline">
                  {crumb.label}
                </Link>
              ) : (
                crumb.label
              )}
            </li>
            <li aria-hidden className="text-slate-400">
              <ChevronRight size={14} />
            </li>
          </Fragment>
        ))}
        {current && (
          <li aria-current="page" className="min-w-0">
            <h1 className="truncate text-lg font-semibold text-slate-900">{current.label}</h1>
          </li>
        )}
      </ol>
    </nav>
  );
}
