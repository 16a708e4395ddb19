import type { ReactNode } from "react";

/**
 * The top of a settings or list page: what the page is for, in a sentence or two, and what can be
 * done from it, on the right. The page's title is the shell's breadcrumb (its h1), so this has no
 * heading of its own. It keeps the height of a button row when empty (a viewer's workflow list,
 * without the buttons), so the list below does not move with the role.
 */
export function PageHeader({
  children,
  actions,
  className,
}: {
  children?: ReactNode;
  actions?: ReactNode;
  className?: string;
}) {
  return (
    <header className={`flex min-h-8 flex-wrap items-center gap-3${className ? ` ${className}` : ""}`}>
      {children && <div className="min-w-0 flex-1 space-y-1 text-sm text-slate-600">{children}</div>}
      {actions && <div className="ml-auto flex items-center justify-end gap-3">{actions}</div>}
    </header>
  );
}
