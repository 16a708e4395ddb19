import { WORKSPACE_COOKIE } from "@/contract";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

function cookieAttributes(maxAge: number): string {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  return `; Path=/; Max-Age=${maxAge}; SameSite=Lax${secure}`;
}

/** Makes the browser's session act in this workspace from the next request on (pages and API alike). */
export function actInWorkspace(workspaceId: string): void {
  document.cookie = `${WORKSPACE_COOKIE}=${encodeURIComponent(workspaceId)}${cookieAttributes(ONE_YEAR_SECONDS)}`;
}

/** Back to the default: the first workspace the user belongs to. */
export function forgetWorkspace(): void {
  document.cookie = `${WORKSPACE_COOKIE}=${cookieAttributes(0)}`;
}

/**
 * Loads a page of this site afresh (not a client-side navigation): after a change of workspace or
 * of who is signed in, nothing cached in this tab (queries, server components) may be reused.
 */
export function loadAfresh(path: string): void {
  window.location.assign(path);
}

/** The page to show after a switch: this one, except a workflow's, which belongs to the workspace left. */
function pageAfterSwitch(): string {
  const here = window.location.pathname;
  return here.startsWith("/workflows/") ? "/" : here;
}

/**
 * Switches to the workspace and loads the page afresh (`path`, else this page), so that server
 * pages and every cached query read the new workspace.
 */
export function openWorkspace(workspaceId: string, path: string = pageAfterSwitch()): void {
  actInWorkspace(workspaceId);
  loadAfresh(path);
}
