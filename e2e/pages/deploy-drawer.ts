import type { Page } from "@playwright/test";
import { EditorPage } from "./editor-page";

/** Opens the workflow's editor, then its deploy drawer on `tab`; answers the drawer. */
export async function openDeployTab(
  page: Page,
  workflowId: string,
  tab: "deployments" | "api" | "webhooks" | "schedules" | "chat" | "mcp",
) {
  await new EditorPage(page).open(workflowId);
  await page.getByTestId("deploy-open").click();
  const drawer = page.getByTestId("deploy-drawer");
  await drawer.getByTestId(`deploy-tab-${tab}`).click();
  return drawer;
}
