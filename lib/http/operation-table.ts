import "server-only";
import type { Endpoint } from "./endpoint";

/** A bound endpoint of any operation, as a table holds it. */
export type AnyEndpoint = Endpoint<never>;

type Segment = { kind: "literal"; text: string } | { kind: "param"; name: string } | { kind: "rest"; name: string };

interface TablePath {
  path: string;
  segments: Segment[];
  byMethod: Map<string, AnyEndpoint>;
}

/** What a request's path matched: the declared path, its endpoints by method, and the path's params. */
export interface PathMatch {
  path: string;
  byMethod: ReadonlyMap<string, AnyEndpoint>;
  params: Record<string, string>;
}

function segmentsOf(endpoint: AnyEndpoint): Segment[] {
  const { path, parameters } = endpoint.operation;
  const segments: Segment[] = path
    .split("/")
    .slice(1)
    .map((text) => {
      const name = /^\{(\w+)\}$/.exec(text)?.[1];
      if (name === undefined) return { kind: "literal", text };
      return parameters?.some((parameter) => parameter.name === name && parameter.rest)
        ? { kind: "rest", name }
        : { kind: "param", name };
    });
  if (segments.slice(0, -1).some((segment) => segment.kind === "rest"))
    throw new Error(`${path}: a rest parameter must end the path`);
  return segments;
}

const RANK = { literal: 0, param: 1, rest: 2 } as const;

/** Next.js's order, which the route files had: a literal segment wins over a parameter, a parameter over the rest of the path. */
function moreSpecificFirst(a: TablePath, b: TablePath): number {
  for (let index = 0; index < Math.max(a.segments.length, b.segments.length); index++) {
    const left = a.segments[index];
    const right = b.segments[index];
    if (!left || !right) return left ? -1 : 1;
    const difference = RANK[left.kind] - RANK[right.kind];
    if (difference !== 0) return difference;
  }
  return 0;
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [index, segment] of segments.entries()) {
    if (segment.kind === "rest") {
      if (parts.length <= index) return null;
      params[segment.name] = parts.slice(index).join("/");
      return params;
    }
    const part = parts[index];
    if (part === undefined || part === "") return null;
    if (segment.kind === "literal" ? part !== segment.text : false) return null;
    if (segment.kind === "param") params[segment.name] = part;
  }
  return parts.length === segments.length ? params : null;
}

/**
 * The declared operations by path, in matching order. Two endpoints for one method and path are a
 * mistake caught when the table is built, as is an endpoint without a method.
 */
export function operationTable(endpoints: readonly AnyEndpoint[]): { match(pathname: string): PathMatch | null } {
  const paths = new Map<string, TablePath>();
  for (const endpoint of endpoints) {
    const { method, path, operationId } = endpoint.operation;
    if (!method) throw new Error(`${operationId}: a dispatched operation declares its method`);
    const entry = paths.get(path) ?? { path, segments: segmentsOf(endpoint), byMethod: new Map() };
    if (entry.byMethod.has(method))
      throw new Error(
        `${method} ${path} is bound twice (${entry.byMethod.get(method)!.operation.operationId}, ${operationId})`,
      );
    entry.byMethod.set(method, endpoint);
    paths.set(path, entry);
  }
  const ordered = [...paths.values()].sort(moreSpecificFirst);
  return {
    /** The most specific declared path the URL path matches, its segments decoded; null for none (or a malformed escape). */
    match(pathname) {
      let parts: string[];
      try {
        parts = pathname.split("/").slice(1).map(decodeURIComponent);
      } catch {
        return null;
      }
      for (const entry of ordered) {
        const params = matchSegments(entry.segments, parts);
        if (params) return { path: entry.path, byMethod: entry.byMethod, params };
      }
      return null;
    },
  };
}
