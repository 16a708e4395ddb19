"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  BookOpen,
  ChartColumn,
  ChevronDown,
  CircleDollarSign,
  KeyRound,
  Lock,
  LogOut,
  PiggyBank,
  Users,
  type LucideIcon,
} from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import { api } from "@/contract";
import { ThemeToggle } from "@/components/theme/theme-toggle";
import { messageOf } from "./messages";
import { useDismiss } from "./use-dismiss";
import { forgetWorkspace } from "./workspace-cookie";

export const sessionKey = ["session"] as const;

const itemClass = "flex w-full items-center gap-2 px-3 py-2 text-left hover:bg-slate-100";

/** What runs spent, the settings pages and the API's reference, as the menu links them. */
const SETTINGS: Array<{ href: string; label: string; icon: LucideIcon }> = [
  { href: "/usage", label: "Usage", icon: ChartColumn },
  { href: "/settings/members", label: "Members", icon: Users },
  { href: "/settings/secrets", label: "Secrets", icon: Lock },
  { href: "/settings/prices", label: "Prices", icon: CircleDollarSign },
  { href: "/settings/api-keys", label: "API keys", icon: KeyRound },
  { href: "/settings/budgets", label: "Budgets", icon: PiggyBank },
  { href: "/api-docs", label: "API", icon: BookOpen },
];

/**
 * The signed-in user's name, and a menu with their email, the settings pages, the theme and Sign
 * out. `fill`: as wide as its container (the sidebar), the menu opening rightwards.
 */
export function UserMenu({ fill = false }: { fill?: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const session = useQuery({ queryKey: sessionKey, queryFn: api.auth.session, staleTime: 60_000 });
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const menu = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(menu, open, close);

  async function signOut() {
    setError(null);
    try {
      await api.auth.signOut();
      // The next person to sign in on this browser starts in their own first workspace.
      forgetWorkspace();
      queryClient.clear();
      router.replace("/sign-in");
      router.refresh();
    } catch (failure) {
      setError(messageOf(failure, "Could not sign out"));
    }
  }

  const user = session.data;
  if (!user) return null;
  return (
    <div className="relative" ref={menu} data-testid="user-menu">
      <button
        type="button"
        className={`btn-secondary ${fill ? "w-full" : ""}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
      >
        <span
          className="flex h-5 w-5 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700"
          aria-hidden
        >
          {(user.name || user.email).slice(0, 1).toUpperCase()}
        </span>
        <span className={`truncate ${fill ? "min-w-0 flex-1 text-left" : "max-w-40"}`}>{user.name || user.email}</span>
        <ChevronDown size={14} aria-hidden />
      </button>
      {open && (
        <div
          role="menu"
          className={`absolute ${fill ? "left-0" : "right-0"} z-20 mt-1 w-56 rounded border border-slate-200 bg-white py-1 text-sm shadow-lg`}
        >
          <p className="truncate px-3 py-2 text-slate-500" title={user.email}>
            {user.email}
          </p>
          {SETTINGS.map(({ href, label, icon: Icon }) => (
            <Link key={href} href={href} role="menuitem" className={itemClass} onClick={close}>
              <Icon size={14} aria-hidden /> {label}
            </Link>
          ))}
          <div className="my-1 border-t border-slate-100" role="separator" />
          <ThemeToggle />
          <div className="my-1 border-t border-slate-100" role="separator" />
          <button type="button" role="menuitem" className={itemClass} onClick={() => void signOut()}>
            <LogOut size={14} aria-hidden /> Sign out
          </button>
          {error && (
            <p role="alert" className="px-3 py-2 text-xs text-red-700">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
