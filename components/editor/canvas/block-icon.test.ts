import { describe, expect, it } from "vitest";
import { BLOCK_TYPES, getBlockDefinition } from "@/blocks/definitions";
import { BLOCK_ICONS } from "./block-icon";

describe("block icons", () => {
  it("has the icon every block definition names, so no block falls back to the plain box", () => {
    const missing = BLOCK_TYPES.map((type) => getBlockDefinition(type)!.icon).filter((icon) => !(icon in BLOCK_ICONS));
    expect(missing).toEqual([]);
  });
});
