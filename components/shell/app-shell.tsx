"use client";

import type { ReactNode } from "react";
import { Breadcrumbs, type Crumb } from "./breadcrumbs";
import { Sidebar } from "./sidebar";

/** A signed-in page's frame: the sidebar on the left, the page's breadcrumbs above it. */
export function AppShell({ breadcrumbs, children }: { breadcrumbs: readonly Crumb[]; children: ReactNode }) {
  return (
    <div className="flex min-h-screen">
      <Sidebar />
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 shrink-0 items-center border-b border-slate-200 bg-white px-6">
          <Breadcrumbs items={breadcrumbs} />
        </header>
        <div className="min-w-0 flex-1">{children}</div>
      </div>
    </div>
  );
}
