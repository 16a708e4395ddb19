#!/usr/bin/env node
// The last step of `npm run build`: records which code the build in .next was made from (scripts/build-freshness.mjs).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { recordBuild } from "./build-freshness.mjs";

recordBuild(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));
