import type { OpenApiDocument } from "@/contract/openapi";
import {
  ACCESS_TEXT,
  answersOf,
  METHOD_CLASS,
  parametersOf,
  refName,
  schemaAnchor,
  typeText,
  type OperationView,
} from "./document-view";
import { InlineText } from "./inline-text";
import { JsonView } from "./json-view";

/** A schema's name linking to it below, with the schema itself behind a disclosure. */
function SchemaLink({
  document,
  schema,
  contentType,
}: {
  document: OpenApiDocument;
  schema: unknown;
  contentType: string;
}) {
  const name = refName(schema);
  return (
    <details className="mt-1">
      <summary className="cursor-pointer text-xs text-slate-600">
        <code className="font-mono">{contentType}</code>
        {name ? (
          <>
            {" · "}
            <a className="text-indigo-600 underline" href={`#${schemaAnchor(name)}`}>
              {name}
            </a>
          </>
        ) : null}
      </summary>
      <JsonView value={name ? document.components.schemas[name] : schema} label={`${name ?? contentType} schema`} />
    </details>
  );
}

function Heading({ children }: { children: string }) {
  return <h4 className="mt-4 mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">{children}</h4>;
}

/** One operation: method, path and summary, and when opened its access, parameters, body, answers and errors. */
export function OperationCard({ document, view }: { document: OpenApiDocument; view: OperationView }) {
  const { method, path, operation } = view;
  const parameters = parametersOf(document, operation);
  const { successes, errors } = answersOf(operation);
  const access = operation["x-trellis-access"];
  const role = operation["x-trellis-role"];
  return (
    <details
      className="rounded border border-slate-200 bg-white"
      id={operation.operationId}
      data-testid="api-operation"
    >
      <summary className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm">
        <span
          className={`w-16 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs font-semibold ${METHOD_CLASS[method] ?? ""}`}
        >
          {method}
        </span>
        <code className="font-mono text-slate-900">{path}</code>
        <span className="min-w-0 flex-1 truncate text-slate-600">{operation.summary}</span>
        {access === "public" && (
          <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">public</span>
        )}
      </summary>
      <div className="border-t border-slate-100 px-3 pt-1 pb-3 text-sm">
        {operation.description && (
          <p className="mt-2 text-slate-700">
            <InlineText text={operation.description} />
          </p>
        )}
        <p className="mt-2 text-slate-600">
          {ACCESS_TEXT[access]}
          {role ? `, role ${role} or above` : ""}.
        </p>

        {parameters.length > 0 && (
          <>
            <Heading>Parameters</Heading>
            <table className="w-full text-left text-xs">
              <tbody>
                {parameters.map((parameter) => (
                  <tr key={`${parameter.in}:${parameter.name}`} className="border-t border-slate-100 align-top">
                    <td className="py-1 pr-3 font-mono whitespace-nowrap">
                      {parameter.name}
                      {parameter.required ? <span className="text-red-700">*</span> : null}
                    </td>
                    <td className="py-1 pr-3 text-slate-500">{parameter.in}</td>
                    <td className="py-1 pr-3 font-mono text-slate-500">{typeText(parameter.schema)}</td>
                    <td className="py-1 text-slate-700">
                      <InlineText text={parameter.description} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}

        {operation.requestBody && (
          <>
            <Heading>{operation.requestBody.required ? "Request body" : "Request body (optional)"}</Heading>
            {Object.entries(operation.requestBody.content).map(([contentType, media]) => (
              <div key={contentType}>
                <SchemaLink document={document} schema={media.schema} contentType={contentType} />
                {media.example !== undefined && (
                  <details className="mt-1">
                    <summary className="cursor-pointer text-xs text-slate-600">Example</summary>
                    <JsonView value={media.example} label="Example body" />
                  </details>
                )}
              </div>
            ))}
          </>
        )}

        <Heading>Answers</Heading>
        <ul className="space-y-2">
          {successes.map(([status, response]) => (
            <li key={status}>
              <span className="font-mono font-semibold text-emerald-700">{status}</span>{" "}
              {"description" in response && <InlineText text={response.description} />}
              {"content" in response &&
                Object.entries(response.content ?? {}).map(([contentType, media]) => (
                  <SchemaLink key={contentType} document={document} schema={media.schema} contentType={contentType} />
                ))}
              {"headers" in response &&
                Object.entries(response.headers ?? {}).map(([name, header]) => (
                  <p key={name} className="mt-1 text-xs text-slate-600">
                    Header <code className="font-mono">{name}</code>:{" "}
                    <InlineText text={(header as { description?: string }).description ?? ""} />
                  </p>
                ))}
            </li>
          ))}
        </ul>

        <Heading>Errors</Heading>
        <ul className="flex flex-wrap gap-1.5" aria-label="Error statuses">
          {errors.map(({ status, name }) => {
            const shared = document.components.responses[name] as { description?: string } | undefined;
            return (
              <li
                key={status}
                className="rounded bg-red-50 px-1.5 py-0.5 font-mono text-xs text-red-800"
                title={shared?.description}
              >
                {status} {name}
              </li>
            );
          })}
        </ul>
      </div>
    </details>
  );
}
