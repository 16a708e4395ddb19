"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { UserMenu } from "@/components/auth/user-menu";
import { WorkspaceSwitcher } from "@/components/auth/workspace-switcher";
import { isActive, NAV_ITEMS, SETTINGS_PAGES, type NavItem } from "./navigation";

const itemClass = "flex items-center gap-2 rounded px-2 py-1.5 text-sm";
const activeClass = "bg-indigo-50 font-medium text-indigo-700";
const idleClass = "text-slate-700 hover:bg-slate-100";

function NavLink({ item, pathname, nested = false }: { item: NavItem; pathname: string; nested?: boolean }) {
  const active = isActive(item, pathname);
  const Icon = item.icon;
  return (
    <Link
      href={item.href}
      aria-current={active ? "page" : undefined}
      className={`${itemClass} ${nested ? "pl-8" : ""} ${active ? activeClass : idleClass}`}
    >
      <Icon size={nested ? 14 : 16} aria-hidden />
      {item.label}
    </Link>
  );
}

/**
 * The app's sidebar: the workspace acted in and the signed-in user at the top (the foot of the
 * screen is where `next dev` puts its own badge), then the product's places, with the settings
 * pages while Settings is open. The page it is on is highlighted.
 */
export function Sidebar() {
  const pathname = usePathname();
  return (
    <aside
      className="sticky top-0 z-20 flex h-screen w-56 shrink-0 flex-col border-r border-slate-200 bg-white"
      data-testid="sidebar"
    >
      <Link href="/" className="flex h-14 shrink-0 items-center gap-2 px-4 font-semibold text-slate-900">
        {/* The favicon's mark (public/icon.svg), so the tab and the page show the same thing. */}
        {/* eslint-disable-next-line @next/next/no-img-element -- a 20 px SVG: next/image adds nothing */}
        <img src="/icon.svg" alt="" width={20} height={20} />
        Trellis
      </Link>
      <div className="space-y-1.5 border-b border-slate-200 px-2 pb-3">
        <WorkspaceSwitcher fill />
        <UserMenu fill />
      </div>
      <nav aria-label="Main" className="min-h-0 flex-1 overflow-y-auto px-2 py-3">
        <ul className="space-y-0.5">
          {NAV_ITEMS.map((item) => (
            <li key={item.href}>
              <NavLink item={item} pathname={pathname} />
              {item.href === "/settings" && isActive(item, pathname) && (
                <ul className="mt-0.5 space-y-0.5" aria-label="Settings pages">
                  {SETTINGS_PAGES.map((page) => (
                    <li key={page.href}>
                      <NavLink item={page} pathname={pathname} nested />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}
