import {
  normalizeBlockName,
  type ImportFormat,
  type ImportNotMapped,
  type ImportReport,
  type WorkflowDocumentInput,
} from "@/contract";
import type { BuiltBlock, BuiltEdge } from "./built-graph";
import { layOut } from "./layout";

export type { BuiltBlock, BuiltEdge } from "./built-graph";

/** A file of a known format that cannot be converted: `path` points into the file. */
export class ConversionError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = "ConversionError";
  }
}

export interface ConvertedFile {
  document: WorkflowDocumentInput;
  report: ImportReport;
}

/** Roots a reference resolves before block names (docs/CONTRACT.md section 2): no block may be called one. */
const RESERVED_ROOTS = new Set(["start", "variable", "loop", "parallel"]);

/**
 * Collects the blocks and edges of a converted file and what the conversion reported. Ids and
 * names are made valid and unique here, once, so the converters can name things after the source:
 * a block name holds only what a reference can spell (letters, digits, _, - and spaces).
 */
export class DocumentBuilder {
  readonly blocks: BuiltBlock[] = [];
  readonly edges: BuiltEdge[] = [];
  private readonly mapped: string[] = [];
  private readonly notMapped: ImportNotMapped[] = [];
  private readonly ids = new Set<string>();
  private readonly names = new Set<string>();
  private readonly drawn = new Set<string>();

  constructor(private readonly format: ImportFormat) {}

  addBlock(block: {
    idHint: string;
    type: string;
    name: string;
    config: Record<string, unknown>;
    parentId?: string | null;
    enabled?: boolean;
    position?: { x: number; y: number };
    size?: { width: number; height: number };
  }) {
    const built: BuiltBlock = {
      id: this.uniqueId(block.idHint),
      type: block.type,
      name: this.uniqueName(block.name, block.type === "start"),
      parentId: block.parentId ?? null,
      enabled: block.enabled ?? true,
      config: block.config,
      ...(block.position ? { position: block.position } : {}),
      ...(block.size ? { size: block.size } : {}),
    };
    this.blocks.push(built);
    return built;
  }

  connect(source: string, target: string, sourceHandle = "out", condition?: string): void {
    // A set, not a scan of the edges: a file of thousands of edges would make the scan quadratic.
    const key = JSON.stringify([source, target, sourceHandle]);
    if (
      this.drawn.has(key) &&
      condition === undefined &&
      this.edges.some((edge) => edge.source === source && edge.target === target && edge.sourceHandle === sourceHandle)
    )
      return;
    this.drawn.add(key);
    this.edges.push({
      id: `e${this.edges.length + 1}`,
      source,
      target,
      sourceHandle,
      ...(condition ? { condition } : {}),
    });
  }

  /** Something that became a Trellis part (`step 2 (apiCall) → API block 'API data'`). */
  map(text: string): void {
    this.mapped.push(text);
  }

  /** Something with no Trellis equivalent: listed, never dropped silently. */
  skip(what: string, why: string): void {
    this.notMapped.push({ what, why });
  }

  build(head: { name: string; description?: string; variables?: Record<string, unknown> }): ConvertedFile {
    const placed = layOut(this.blocks, this.edges);
    return {
      document: {
        name: head.name.trim().slice(0, 200) || "Imported workflow",
        description: (head.description ?? "").slice(0, 10_000),
        variables: head.variables ?? {},
        blocks: placed.map((block) => ({
          id: block.id,
          type: block.type,
          name: block.name,
          position: block.position ?? { x: 0, y: 0 },
          parentId: block.parentId,
          enabled: block.enabled,
          config: block.config,
          ...(block.size ? { size: block.size } : {}),
        })),
        edges: this.edges.map((edge) => ({ ...edge })),
      },
      report: { format: this.format, mapped: [...this.mapped], notMapped: [...this.notMapped] },
    };
  }

  private uniqueId(hint: string): string {
    const base =
      hint
        .replace(/[^A-Za-z0-9_-]+/g, "_")
        .replace(/^_+|_+$/g, "")
        .slice(0, 56) || "block";
    let id = base;
    for (let counter = 2; this.ids.has(id.toLowerCase()); counter += 1) id = `${base}_${counter}`;
    this.ids.add(id.toLowerCase());
    return id;
  }

  private uniqueName(wanted: string, isStart: boolean): string {
    let base =
      wanted
        .replace(/[^\p{L}\p{N}_\- ]+/gu, " ")
        .replace(/\s+/g, " ")
        .trim()
        .slice(0, 120) || "Block";
    if (!/^[\p{L}\p{N}_]/u.test(base)) base = `Block ${base}`;
    if (!isStart && RESERVED_ROOTS.has(normalizeBlockName(base))) base = `${base} block`;
    let name = base;
    for (let counter = 2; this.names.has(normalizeBlockName(name)); counter += 1) name = `${base} ${counter}`;
    this.names.add(normalizeBlockName(name));
    return name;
  }
}

/** Reads a value that must be an object, or fails naming where. */
export function objectAt(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new ConversionError(path, `${path || "The file"} must be an object`);
  return value as Record<string, unknown>;
}

export function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string")
    throw new ConversionError(path, `${path} must be text, got ${Array.isArray(value) ? "an array" : typeof value}`);
  return value;
}

export function requiredString(value: unknown, path: string): string {
  const text = optionalString(value, path);
  if (text === undefined || text.trim() === "") throw new ConversionError(path, `${path} is required`);
  return text;
}
