"use client";

import { ArrowLeft, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { UserMenu } from "@/components/auth/user-menu";
import { WorkspaceSwitcher } from "@/components/auth/workspace-switcher";

/** The top of a settings page: back to the workflows, the page's title, the workspace switcher and the user menu. */
export function SettingsHeader({ icon: Icon, title }: { icon: LucideIcon; title: string }) {
  return (
    <header className="flex items-center gap-3">
      <Link href="/" className="icon-btn" aria-label="Back to workflows">
        <ArrowLeft size={16} aria-hidden />
      </Link>
      <Icon className="text-indigo-600" aria-hidden />
      <h1 className="flex-1 text-2xl font-semibold">{title}</h1>
      <WorkspaceSwitcher />
      <UserMenu />
    </header>
  );
}
