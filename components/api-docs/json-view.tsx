import type { ReactNode } from "react";
import { refName, schemaAnchor } from "./document-view";

const INDENT = "  ";

/** One JSON value, indented like JSON.stringify(value, null, 2), with every `$ref` a link to the schema it names. */
function render(value: unknown, depth: number, key: string): ReactNode {
  const pad = INDENT.repeat(depth);
  const inner = INDENT.repeat(depth + 1);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return (
      <>
        {"[\n"}
        {value.map((item, index) => (
          <span key={`${key}.${index}`}>
            {inner}
            {render(item, depth + 1, `${key}.${index}`)}
            {index < value.length - 1 ? ",\n" : "\n"}
          </span>
        ))}
        {`${pad}]`}
      </>
    );
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const linked = refName(value);
    return (
      <>
        {"{\n"}
        {entries.map(([name, item], index) => (
          <span key={`${key}.${name}`}>
            {inner}
            <span className="text-indigo-800">{JSON.stringify(name)}</span>
            {": "}
            {name === "$ref" && linked ? (
              <a className="text-indigo-600 underline" href={`#${schemaAnchor(linked)}`}>
                {JSON.stringify(item)}
              </a>
            ) : (
              render(item, depth + 1, `${key}.${name}`)
            )}
            {index < entries.length - 1 ? ",\n" : "\n"}
          </span>
        ))}
        {`${pad}}`}
      </>
    );
  }
  return (
    <span className={typeof value === "string" ? "text-emerald-800" : "text-amber-800"}>{JSON.stringify(value)}</span>
  );
}

/** A JSON Schema (or an example) as readable JSON; references to other schemas link to them further down the page. */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <pre
      aria-label={label}
      className="max-h-96 overflow-auto rounded border border-slate-200 bg-slate-50 p-3 font-mono text-xs leading-5 text-slate-800"
    >
      {render(value, 0, "")}
    </pre>
  );
}
