import { describe, expect, it } from "vitest";
import { filtersFromSearch, NO_FILTERS, runListHref, toRunPageRequest } from "./run-list-filters";

describe("the Runs page's filters in its address", () => {
  it("reads what a link sets and leaves out values no run can have", () => {
    expect(filtersFromSearch({ workflow: "wf_1", status: "failed", trigger: "api" })).toEqual({
      workflow: "wf_1",
      status: "failed",
      trigger: "api",
    });
    expect(filtersFromSearch({ status: "broken", trigger: ["webhook", "api"] })).toEqual({
      workflow: "",
      status: "",
      trigger: "webhook",
    });
    expect(filtersFromSearch({})).toEqual(NO_FILTERS);
  });

  it("writes back only the filters set, so the address reads them the same", () => {
    const filters = { workflow: "wf 1", status: "failed", trigger: "" } as const;
    expect(runListHref(NO_FILTERS)).toBe("/runs");
    expect(runListHref(filters)).toBe("/runs?workflow=wf+1&status=failed");
    expect(filtersFromSearch(Object.fromEntries(new URLSearchParams(runListHref(filters).split("?")[1])))).toEqual(
      filters,
    );
  });

  it("asks the API for the filtered list", () => {
    expect(toRunPageRequest({ workflow: "wf_1", status: "succeeded", trigger: "schedule" })).toEqual({
      workflow: "wf_1",
      status: ["succeeded"],
      trigger: ["schedule"],
    });
    expect(toRunPageRequest(NO_FILTERS)).toEqual({});
  });
});
