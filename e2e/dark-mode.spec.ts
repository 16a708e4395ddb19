import { expect, test, type Page } from "@playwright/test";
import { contrast, luminance, Screenshot } from "./contrast";
import { createWorkflow, EditorPage, START_BLOCK } from "./pages/editor-page";

// The first visit compiles the pages when the server runs `next dev`.
test.describe.configure({ timeout: 180_000 });
test.use({ colorScheme: "dark", viewport: { width: 1400, height: 900 } });

/** WCAG AA for body text. */
const READABLE = 4.5;

async function createAgentWorkflow(request: import("@playwright/test").APIRequestContext) {
  return createWorkflow(request, {
    name: `Dark mode ${Date.now()}`,
    blocks: [
      START_BLOCK,
      {
        id: "answer",
        type: "agent",
        name: "Answer",
        position: { x: 460, y: 160 },
        config: { model: "openai/gpt-4o-mini", userPrompt: "<start.message>" },
      },
    ],
    edges: [{ id: "e1", source: "start", target: "answer", sourceHandle: "out" }],
  });
}

const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains("dark"));
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

async function chooseTheme(page: Page, label: "System" | "Light" | "Dark") {
  await page.getByTestId("user-menu").getByRole("button").first().click();
  const item = page.getByRole("menuitemradio", { name: label });
  await item.click();
  await expect(item).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Escape");
}

// Under `next dev` the editor and home pages compile on first use: open each once before the tests.
test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(300_000);
  const workflowId = await createAgentWorkflow(request);
  const page = await browser.newPage();
  await page.goto(`/workflows/${workflowId}`, { timeout: 240_000 });
  await page.locator(".react-flow__node").first().waitFor({ timeout: 240_000 });
  await page.goto("/", { timeout: 240_000 });
  await page.getByTestId("user-menu").waitFor({ timeout: 240_000 });
  await page.close();
});

test("with the system in dark mode the editor paints a dark canvas, dark blocks with readable titles, and visible edges", async ({
  page,
  request,
}) => {
  const workflowId = await createAgentWorkflow(request);
  const editor = new EditorPage(page);
  await editor.open(workflowId);
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(page.locator(".react-flow")).toHaveClass(/\bdark\b/);
  // Scrollbars and native form controls are drawn dark too.
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("dark");
  // Let the first fit settle before reading pixels.
  await expect(page.locator(".react-flow__edge")).toHaveCount(1);
  await page.waitForTimeout(300);

  const shot = new Screenshot(await page.screenshot());
  const canvasBox = (await editor.canvas.boundingBox())!;
  const canvas = shot.dominant(canvasBox);
  expect(luminance(canvas), `canvas background ${canvas}`).toBeLessThan(0.05);
  expect(luminance(await bodyBackground(page)), "page background").toBeLessThan(0.05);

  const answerId = await editor.blockId("Answer");
  const card = page.getByTestId(`block-${answerId}`);
  const cardColour = shot.dominant((await card.boundingBox())!);
  expect(luminance(cardColour), `block background ${cardColour}`).toBeLessThan(0.08);

  // The title as drawn: its strongest pixels against the card, from the screenshot.
  const title = page.getByTestId(`block-name-${answerId}`);
  const titleBox = (await title.boundingBox())!;
  const titleBackground = shot.dominant(titleBox);
  const titleInk = shot.strongestAgainst(titleBox, titleBackground);
  expect(contrast(titleInk, titleBackground), `title ${titleInk} on ${titleBackground}`).toBeGreaterThanOrEqual(
    READABLE,
  );

  // And as styled: every line of text on the node against the card's background colour.
  const styled = await card.evaluate((node) => ({
    background: getComputedStyle(node).backgroundColor,
    texts: [...node.querySelectorAll<HTMLElement>("div, span, p")]
      .filter((element) =>
        [...element.childNodes].some((child) => child.nodeType === Node.TEXT_NODE && child.textContent!.trim()),
      )
      .map((element) => ({ text: element.textContent!.trim(), colour: getComputedStyle(element).color })),
  }));
  expect(styled.texts.map((line) => line.text)).toEqual(expect.arrayContaining(["Answer", "Agent"]));
  for (const line of styled.texts) {
    expect(
      contrast(line.colour, styled.background),
      `"${line.text}" ${line.colour} on ${styled.background}`,
    ).toBeGreaterThanOrEqual(READABLE);
  }

  // Lines and the minimap are graphics: WCAG asks 3:1 of them against what they are drawn on.
  const edgeStroke = await page
    .locator(".react-flow__edge-path")
    .first()
    .evaluate((path) => getComputedStyle(path).stroke);
  expect(contrast(edgeStroke, canvas), `edge ${edgeStroke} on the canvas`).toBeGreaterThanOrEqual(3);
  const minimap = await page.locator(".react-flow__minimap").evaluate((map) => ({
    background: getComputedStyle(map).backgroundColor,
    node: getComputedStyle(map.querySelector(".react-flow__minimap-node")!).fill,
  }));
  expect(luminance(minimap.background), `minimap ${minimap.background}`).toBeLessThan(0.08);
  expect(
    contrast(minimap.node, minimap.background),
    `minimap block ${minimap.node} on ${minimap.background}`,
  ).toBeGreaterThanOrEqual(1.5);
});

test("the toggle switches to light, the choice survives a reload and is painted before any script bundle runs", async ({
  page,
}) => {
  await page.goto("/");
  expect(await isDark(page)).toBe(true);
  await chooseTheme(page, "Light");
  expect(await isDark(page)).toBe(false);
  expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.9);

  await page.reload();
  await expect(page.getByTestId("user-menu")).toBeVisible();
  expect(await isDark(page)).toBe(false);
  expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.9);

  // With the app's JavaScript bundles refused, only the inline head script can set the scheme:
  // the saved choice is on the page before React, so a reload never flashes the other scheme.
  await chooseTheme(page, "Dark");
  await page.route("**/_next/static/**/*.js", (route) => route.abort());
  await page.reload({ waitUntil: "domcontentloaded" });
  expect(await isDark(page)).toBe(true);
  expect(luminance(await bodyBackground(page))).toBeLessThan(0.05);
  await page.unroute("**/_next/static/**/*.js");
});

test("System follows the operating system's setting as it changes, and a saved choice overrides it", async ({
  page,
}) => {
  await page.goto("/");
  await chooseTheme(page, "System");
  expect(await isDark(page)).toBe(true);

  await page.emulateMedia({ colorScheme: "light" });
  await expect.poll(() => isDark(page)).toBe(false);
  expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.9);
  await page.emulateMedia({ colorScheme: "dark" });
  await expect.poll(() => isDark(page)).toBe(true);

  await chooseTheme(page, "Light");
  await page.emulateMedia({ colorScheme: "light" });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(page.getByTestId("user-menu")).toBeVisible();
  expect(await isDark(page)).toBe(false);
});
