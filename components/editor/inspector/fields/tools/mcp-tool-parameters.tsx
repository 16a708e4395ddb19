"use client";

import { useState } from "react";
import { smallButtonClass } from "../field-props";
import { useMcpServerTools } from "./use-tool-catalog";

type Schema = { properties?: Record<string, { type?: unknown; description?: unknown }>; required?: unknown };

/** `name: type` per argument, required ones marked, from the schema the server gave. */
function argumentsOf(
  schema: Schema | undefined,
): Array<{ name: string; type: string; required: boolean; description: string }> {
  const required = Array.isArray(schema?.required) ? schema.required : [];
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    type: typeof property?.type === "string" ? property.type : "any",
    required: required.includes(name),
    description: typeof property?.description === "string" ? property.description : "",
  }));
}

/**
 * An MCP entry's tools as the server describes them now: what each does and the arguments the
 * model gives it (read-only: the server defines them). Asked of the server only when opened,
 * since asking may start its process.
 */
export function McpToolParameters({
  server,
  tools,
  testId,
}: {
  server: string;
  tools: string[] | undefined;
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const listing = useMcpServerTools(server, open);
  if (!open) {
    return (
      <button
        type="button"
        className={smallButtonClass}
        onClick={() => setOpen(true)}
        data-testid={`${testId}-show-parameters`}
      >
        Show its parameters
      </button>
    );
  }
  const shown = (listing.data?.tools ?? []).filter((tool) => !tools || tools.includes(tool.name));
  const missing =
    listing.data && tools ? tools.filter((name) => !listing.data.tools.some((tool) => tool.name === name)) : [];
  return (
    <div
      className="space-y-1 rounded bg-slate-50 p-1.5 text-[11px] text-slate-700"
      data-testid={`${testId}-parameters`}
    >
      {listing.isPending && <p className="text-slate-500">Asking the server…</p>}
      {listing.isError && (
        <p role="alert" className="text-red-600">
          {listing.error.message}{" "}
          <button type="button" className={smallButtonClass} onClick={() => void listing.refetch()}>
            Retry
          </button>
        </p>
      )}
      {shown.map((tool) => (
        <div key={tool.name}>
          <div>
            <span className="font-mono font-medium">{tool.name}</span> {tool.description}
          </div>
          <ul className="ml-3 list-disc">
            {argumentsOf(tool.inputSchema as Schema | undefined).map((argument) => (
              <li key={argument.name}>
                <span className="font-mono">{argument.name}</span>: {argument.type}
                {argument.required ? " (required)" : ""}
                {argument.description ? `: ${argument.description}` : ""}
              </li>
            ))}
          </ul>
        </div>
      ))}
      {missing.map((name) => (
        <p key={name} role="alert" className="text-red-600">
          The server no longer offers <span className="font-mono">{name}</span>: the agent will fail until it is
          removed.
        </p>
      ))}
    </div>
  );
}
