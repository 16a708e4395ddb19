"use client";

import { Download } from "lucide-react";
import type { OpenApiDocument } from "@/contract/openapi";
import { operationsByTag, schemaAnchor } from "./document-view";
import { InlineText } from "./inline-text";
import { JsonView } from "./json-view";
import { OperationCard } from "./operation-card";

/**
 * The API docs page: the OpenAPI document the server serves at /api/openapi.json, read as it is
 * (the page is handed the same object), operations grouped by tag, then every named schema.
 */
export function ApiDocsPage({ document }: { document: OpenApiDocument }) {
  const tags = operationsByTag(document);
  const errorResponses = Object.entries(document.components.responses) as Array<[string, { description: string }]>;
  return (
    <main className="mx-auto max-w-5xl space-y-8 px-6 py-10">
      <section className="space-y-3 text-sm text-slate-700" aria-label="About the API">
        <p className="flex flex-wrap items-center gap-3">
          <span>
            {document.info.title}, version {document.info.version}: OpenAPI {document.openapi}.
          </span>
          <a className="btn-secondary" href="/api/openapi.json" download="trellis-openapi.json">
            <Download size={14} aria-hidden /> openapi.json
          </a>
        </p>
        {document.info.description.split("\n\n").map((paragraph) => (
          <p key={paragraph.slice(0, 40)}>
            <InlineText text={paragraph} />
          </p>
        ))}
      </section>

      <nav aria-label="API sections" className="flex flex-wrap gap-2 text-sm">
        {tags.map((tag) => (
          <a
            key={tag.name}
            href={`#tag-${tag.name}`}
            className="rounded border border-slate-200 bg-white px-2 py-1 hover:bg-slate-100"
          >
            {tag.name} <span className="text-slate-400">{tag.operations.length}</span>
          </a>
        ))}
        <a href="#errors" className="rounded border border-slate-200 bg-white px-2 py-1 hover:bg-slate-100">
          Errors
        </a>
        <a href="#schemas" className="rounded border border-slate-200 bg-white px-2 py-1 hover:bg-slate-100">
          Schemas
        </a>
      </nav>

      {tags.map((tag) => (
        <section key={tag.name} id={`tag-${tag.name}`} className="space-y-2" aria-label={tag.name}>
          <h2 className="text-lg font-semibold">{tag.name}</h2>
          <p className="text-sm text-slate-600">
            <InlineText text={tag.description} />
          </p>
          {tag.operations.map((view) => (
            <OperationCard key={`${view.method} ${view.path}`} document={document} view={view} />
          ))}
        </section>
      ))}

      <section id="errors" className="space-y-2" aria-label="Errors">
        <h2 className="text-lg font-semibold">Errors</h2>
        <p className="text-sm text-slate-600">
          Every error answers with the ErrorBody schema; the status says which kind it is.
        </p>
        <table className="w-full overflow-hidden rounded border border-slate-200 bg-white text-left text-sm">
          <tbody>
            {errorResponses.map(([name, response]) => (
              <tr key={name} className="border-t border-slate-100 align-top">
                <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">{name}</td>
                <td className="px-3 py-2 text-slate-700">
                  <InlineText text={response.description} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section id="schemas" className="space-y-2" aria-label="Schemas">
        <h2 className="text-lg font-semibold">Schemas</h2>
        <p className="text-sm text-slate-600">
          JSON Schema (draft 2020-12). Request bodies are described as sent (defaults may be left out), answers as
          received.
        </p>
        {Object.entries(document.components.schemas).map(([name, schema]) => (
          <details key={name} id={schemaAnchor(name)} className="rounded border border-slate-200 bg-white">
            <summary className="cursor-pointer px-3 py-2 font-mono text-sm">{name}</summary>
            <div className="px-3 pb-3">
              <JsonView value={schema} label={`${name} schema`} />
            </div>
          </details>
        ))}
      </section>
    </main>
  );
}
