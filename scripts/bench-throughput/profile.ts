/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): self time by where the code comes from (an npm
 * package, a Trellis file, Node's internals, V8) and by function, over the samples taken in a
 * time window (the measured part of the load) when one is given.
 *
 * `next build` bundles (and minifies) Trellis's code and the packages it does not keep external into
 * chunks under .next/server, each with a source map: a sample in a chunk is put back in its
 * original file or package, and its function named from the original source where the map does not.
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileRow {
  name: string;
  ms: number;
  percent: number;
}

export interface ProfileSummary {
  file: string;
  /** Samples counted, and the time they cover. */
  samples: number;
  sampledMs: number;
  /** Whether only the measured window was counted (else the whole process's life). */
  windowed: boolean;
  /** Share of the counted samples in which the process was idle (waiting for I/O). */
  idlePercent: number;
  /** Percentages are of the busy samples (idle left out). */
  byLayer: ProfileRow[];
  byGroup: ProfileRow[];
  byFunction: ProfileRow[];
}

/** Where a module path points: its npm package (scoped ones whole), else the path in the project. */
function groupOfModulePath(modulePath: string): string {
  const index = modulePath.lastIndexOf("node_modules/");
  if (index >= 0) {
    const parts = modulePath.slice(index + "node_modules/".length).split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? modulePath);
  }
  return modulePath;
}

/** The coarse layer a group belongs to, for the one-line summary. */
function layerOf(group: string): string {
  if (group.startsWith("@prisma/") || group === "prisma" || group === "(WebAssembly)")
    return "Prisma (client, query compiler, adapter)";
  if (/^pg(-|$)|^postgres-/.test(group)) return "pg driver";
  if (group === "next" || group.startsWith("react") || group.startsWith("@next/") || group.includes("Next.js build"))
    return "Next.js / React";
  if (group.startsWith("@dbos-inc/")) return "DBOS";
  if (group.startsWith("node:")) return "Node.js (JS internals)";
  if (group.startsWith("("))
    return group === "(garbage collector)" ? "garbage collector" : "native / V8 (builtins, bindings, program)";
  if (!group.includes("/") || group.startsWith("@") || group.startsWith("/")) return "other packages";
  return "Trellis code";
}

/** A guess at the name of the function that starts at `column` of an original source line. */
function functionNameAt(line: string, column: number): string | null {
  const rest = line.slice(column);
  const declared = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)/.exec(rest);
  if (declared) return declared[1]!;
  if (/^(?:async\s+)?(?:\([^)]*\)|[\w$]+)\s*(?::\s*[^=]+)?=>/.test(rest)) {
    // An arrow function: named by what it is assigned to, or the property it is the value of.
    const assigned = /([\w$#]+)\s*(?::\s*[^=]+)?[=:]\s*$/.exec(line.slice(0, column));
    return assigned ? assigned[1]! : null;
  }
  const method =
    /^(?:(?:static|async|get|set|private|public|protected|override)\s+)*\*?\s*([\w$#]+)\s*(?:<[^>]*>)?\s*\(/.exec(rest);
  return method && !["if", "for", "while", "switch", "catch", "function", "return"].includes(method[1]!)
    ? method[1]!
    : null;
}

/**
 * Positions in the chunks `next build` writes (minified) put back in their original files through
 * the chunks' source maps (node:module's SourceMap).
 */
class BuildSourceMaps {
  private readonly cache = new Map<string, { map: SourceMap; contents: Map<string, string[]>; dir: string } | null>();

  constructor(private readonly root: string) {}

  locate(file: string, line: number, column: number): { source: string; line: number; name: string | null } | null {
    let entry = this.cache.get(file);
    if (entry === undefined) {
      entry = null;
      if (existsSync(`${file}.map`)) {
        try {
          const payload = JSON.parse(readFileSync(`${file}.map`, "utf8")) as {
            sources?: string[];
            sourcesContent?: Array<string | null>;
          };
          const contents = new Map<string, string[]>();
          payload.sources?.forEach((source, index) => {
            const text = payload.sourcesContent?.[index];
            if (typeof text === "string") contents.set(source, text.split("\n"));
          });
          entry = {
            map: new SourceMap(payload as ConstructorParameters<typeof SourceMap>[0]),
            contents,
            dir: path.dirname(file),
          };
        } catch {
          entry = null;
        }
      }
      this.cache.set(file, entry);
    }
    if (!entry) return null;
    const found = entry.map.findEntry(line, column) as {
      originalSource?: string;
      originalLine?: number;
      originalColumn?: number;
      name?: string;
    };
    if (!found.originalSource) return null;
    const text = entry.contents.get(found.originalSource)?.[found.originalLine ?? 0];
    const name = found.name ?? (text === undefined ? null : functionNameAt(text, found.originalColumn ?? 0));
    let source = decodeURIComponent(found.originalSource);
    const turbopack = /^turbopack:\/\/\/\[([^\]]+)\]\/(.*)$/.exec(source);
    // Turbopack's own runtime (module loading) is Next's: named as a file of the next package.
    if (turbopack)
      source =
        turbopack[1] === "project"
          ? path.join(this.root, turbopack[2]!)
          : path.join(this.root, "node_modules/next/[turbopack]", turbopack[2]!);
    else source = path.resolve(entry.dir, source);
    return { source, line: (found.originalLine ?? 0) + 1, name };
  }
}

export function summariseProfile(
  file: string,
  options: { root: string; window?: { fromUs: number; toUs: number }; top?: number },
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const top = options.top ?? 25;
  const maps = new BuildSourceMaps(options.root);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const labels = new Map<number, { group: string; fn: string; idle: boolean }>();

  const label = (node: ProfileNode) => {
    let found = labels.get(node.id);
    if (found) return found;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    let group: string;
    let fn = functionName || "(anonymous)";
    if (!url) {
      // V8's own entries ((program), (garbage collector), (idle)), builtins and Node's C++ bindings.
      group = functionName.startsWith("(") ? functionName : "(native: V8 builtins, Node bindings)";
    } else if (url.startsWith("node:")) {
      group = `node:${url.slice(5).split("/").slice(0, 2).join("/")}`;
      fn = `${fn} ${url}:${lineNumber + 1}`;
    } else if (url.startsWith("wasm://")) {
      group = "(WebAssembly)";
    } else {
      const shown = (absolute: string) => {
        const relative = path.relative(options.root, absolute).split(path.sep).join("/");
        return relative.startsWith("..") ? absolute : relative;
      };
      const filePath = url.startsWith("file://") ? decodeURIComponent(new URL(url).pathname) : url;
      const file = shown(filePath);
      const original = file.startsWith(".next/") ? maps.locate(filePath, lineNumber, columnNumber) : null;
      if (original) {
        const source = shown(original.source);
        group = groupOfModulePath(source);
        fn = `${original.name ?? fn} ${source}:${original.line}`;
      } else if (file.startsWith(".next/")) {
        group = `${file.split("/").slice(0, 3).join("/")} (Next.js build, no source map)`;
        fn = `${fn} ${file}:${lineNumber + 1}`;
      } else {
        group = groupOfModulePath(file);
        fn = `${fn} ${file}:${lineNumber + 1}`;
      }
    }
    if (!fn.includes(" ")) fn = `${fn} [${group}]`;
    found = { group, fn, idle: functionName === "(idle)" };
    labels.set(node.id, found);
    return found;
  };

  // Each sample's node and its time; a sample stands for the time until the next one.
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const times: number[] = [];
  let clock = profile.startTime;
  for (let index = 0; index < samples.length; index += 1) {
    clock += deltas[index] ?? 0;
    times.push(clock);
  }
  const window = options.window;
  const overlaps = window !== undefined && times.some((time) => time >= window.fromUs && time <= window.toUs);
  const groupTime = new Map<string, number>();
  const functionTime = new Map<string, number>();
  let counted = 0;
  let idle = 0;
  let busyUs = 0;
  let totalUs = 0;
  for (let index = 0; index < samples.length; index += 1) {
    const time = times[index]!;
    if (overlaps && (time < window.fromUs || time > window.toUs)) continue;
    const node = nodes.get(samples[index]!);
    if (!node) continue;
    const span = index + 1 < samples.length ? times[index + 1]! - time : (deltas[index] ?? 0);
    const { group, fn, idle: isIdle } = label(node);
    counted += 1;
    totalUs += span;
    if (isIdle) {
      idle += span;
      continue;
    }
    busyUs += span;
    groupTime.set(group, (groupTime.get(group) ?? 0) + span);
    functionTime.set(fn, (functionTime.get(fn) ?? 0) + span);
  }
  const layerTime = new Map<string, number>();
  for (const [group, us] of groupTime) layerTime.set(layerOf(group), (layerTime.get(layerOf(group)) ?? 0) + us);
  const rows = (map: Map<string, number>): ProfileRow[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        ms: Math.round(us / 1000),
        percent: busyUs ? Math.round((us / busyUs) * 1000) / 10 : 0,
      }));
  return {
    file,
    samples: counted,
    sampledMs: Math.round(totalUs / 1000),
    windowed: overlaps,
    idlePercent: totalUs ? Math.round((idle / totalUs) * 1000) / 10 : 0,
    byLayer: rows(layerTime),
    byGroup: rows(groupTime),
    byFunction: rows(functionTime),
  };
}

export function printProfile(summary: ProfileSummary): void {
  const scope = summary.windowed
    ? "the measured window"
    : "the whole process (the measured window was not found in the profile's clock)";
  console.log(`\nWhere a run's time goes: CPU profile of the web process over ${scope}`);
  console.log(`  ${summary.file}`);
  console.log(
    `  ${summary.samples} samples, ${summary.sampledMs} ms; idle ${summary.idlePercent}%; shares below are of the busy time`,
  );
  const table = (title: string, rows: ProfileRow[]) => {
    console.log(`\n  Self time by ${title} (top ${rows.length})`);
    for (const row of rows)
      console.log(`  ${row.percent.toFixed(1).padStart(5)}%  ${String(row.ms).padStart(7)} ms  ${row.name}`);
  };
  table("layer", summary.byLayer);
  table("package / file", summary.byGroup);
  table("function", summary.byFunction);
}
