import {
  BookOpen,
  ChartColumn,
  CircleDollarSign,
  FileCode2,
  History,
  KeyRound,
  Lock,
  PlugZap,
  PiggyBank,
  ScrollText,
  Settings,
  ShieldCheck,
  Users,
  Workflow,
  type LucideIcon,
} from "lucide-react";

/** A place the sidebar leads to. */
export interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  /** Paths, besides `href` and those under it, where this item is the one the page belongs to. */
  alsoAt?: readonly string[];
}

/** The workspace's settings pages, in the order the sidebar and the settings page list them. */
export const SETTINGS_PAGES: ReadonlyArray<NavItem & { description: string }> = [
  {
    href: "/settings/members",
    label: "Members",
    icon: Users,
    description: "Who is in the workspace, their roles, and invitations.",
  },
  {
    href: "/settings/providers",
    label: "Model providers",
    icon: PlugZap,
    description: "Each provider's key: where it comes from, the workspace's own, and a connection test.",
  },
  {
    href: "/settings/secrets",
    label: "Secrets",
    icon: Lock,
    description: "Values workflows read as {{NAME}}, stored encrypted.",
  },
  {
    href: "/settings/api-keys",
    label: "API keys",
    icon: KeyRound,
    description: "Keys that call the REST API and MCP server as this workspace.",
  },
  {
    href: "/settings/budgets",
    label: "Budgets",
    icon: PiggyBank,
    description: "Monthly spending caps for the workspace and each API key.",
  },
  {
    href: "/settings/prices",
    label: "Prices",
    icon: CircleDollarSign,
    description: "Model prices: the catalog's, and the workspace's own overrides.",
  },
  {
    href: "/settings/sso",
    label: "Single sign-on",
    icon: ShieldCheck,
    description: "Sign people in with your identity provider (OpenID Connect); owners only.",
  },
  {
    href: "/settings/audit",
    label: "Audit log",
    icon: ScrollText,
    description: "Who signed in and who changed what, when and from where (admins and owners).",
  },
];

/** The sidebar's items, top to bottom. Home lists the workflows, so Workflows is the item there too. */
export const NAV_ITEMS: readonly NavItem[] = [
  { href: "/workflows", label: "Workflows", icon: Workflow, alsoAt: ["/"] },
  { href: "/knowledge", label: "Knowledge", icon: BookOpen },
  { href: "/runs", label: "Runs", icon: History },
  { href: "/usage", label: "Usage", icon: ChartColumn },
  { href: "/settings", label: "Settings", icon: Settings },
  { href: "/api-docs", label: "API docs", icon: FileCode2 },
];

/** Whether `pathname` is `path` itself or a page under it (`/settings/secrets` is under `/settings`, `/settingsx` is not). */
function isAtOrUnder(pathname: string, path: string): boolean {
  if (path === "/") return pathname === "/";
  return pathname === path || pathname.startsWith(`${path}/`);
}

/** Whether the page at `pathname` belongs to `item`, so the sidebar highlights it. */
export function isActive(item: Pick<NavItem, "href" | "alsoAt">, pathname: string): boolean {
  return [item.href, ...(item.alsoAt ?? [])].some((path) => isAtOrUnder(pathname, path));
}

/** The first crumb of every settings page: "Settings / Secrets". */
export const SETTINGS_CRUMB = { label: "Settings", href: "/settings" } as const;
