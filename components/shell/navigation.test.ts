import { describe, expect, it } from "vitest";
import { isActive, NAV_ITEMS, SETTINGS_PAGES } from "./navigation";

const activeAt = (pathname: string) => NAV_ITEMS.filter((item) => isActive(item, pathname)).map((item) => item.label);

describe("the sidebar's active item", () => {
  it("is exactly one item on every page of the shell", () => {
    expect(activeAt("/")).toEqual(["Workflows"]);
    expect(activeAt("/workflows")).toEqual(["Workflows"]);
    expect(activeAt("/knowledge")).toEqual(["Knowledge"]);
    expect(activeAt("/runs")).toEqual(["Runs"]);
    expect(activeAt("/usage")).toEqual(["Usage"]);
    expect(activeAt("/settings")).toEqual(["Settings"]);
    expect(activeAt("/api-docs")).toEqual(["API docs"]);
    for (const page of SETTINGS_PAGES) expect(activeAt(page.href)).toEqual(["Settings"]);
  });

  it("matches whole path segments: a path that only starts with the same letters is another page", () => {
    expect(activeAt("/settingsx")).toEqual([]);
    expect(activeAt("/runs-archive")).toEqual([]);
    expect(isActive(SETTINGS_PAGES[0]!, "/settings/members")).toBe(true);
    expect(isActive(SETTINGS_PAGES[0]!, "/settings/secrets")).toBe(false);
  });
});
