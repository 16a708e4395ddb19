"use client";

import { useState } from "react";
import { CodeEditor } from "@/components/code-editor";
import type { HttpSample } from "@/contract";
import { inputClass } from "../fields/field-props";
import { headerLines, parseHeaderLines, parseSampleText, sampleText } from "./sample-text";
import { useTestingPart } from "./use-testing";

/**
 * The answer a test run gives instead of sending the block's HTTP request (API block) or its
 * `services.fetch` calls (Function block): status, headers and body. Unset, the call answers
 * "no sample" (status 0) and the run goes on.
 */
export function HttpSampleEditor({ blockId, what }: { blockId: string; what: string }) {
  const [sample, setSample] = useTestingPart(blockId, "http");
  const [statusText, setStatusText] = useState(String(sample?.status ?? 200));
  const [headersText, setHeadersText] = useState(headerLines(sample?.headers));
  const [bodyText, setBodyText] = useState(sampleText(sample?.body));
  const [problem, setProblem] = useState<string | null>(null);

  const save = (next: { status?: string; headers?: string; body?: string }) => {
    const status = Number(next.status ?? statusText);
    if (!Number.isInteger(status) || status < 100 || status > 599)
      return setProblem("The status must be a whole number from 100 to 599.");
    const headers = parseHeaderLines(next.headers ?? headersText);
    if (headers.problem) return setProblem(`Headers: ${headers.problem}`);
    setProblem(null);
    const body = parseSampleText(next.body ?? bodyText);
    const value: HttpSample = { status };
    if (Object.keys(headers.headers).length > 0) value.headers = headers.headers;
    if (body !== undefined) value.body = body;
    setSample(value);
  };

  return (
    <div className="space-y-1.5" data-testid="test-sample-http">
      <label className="flex items-center gap-2 text-xs text-slate-700">
        <input
          type="checkbox"
          checked={sample !== undefined}
          onChange={(event) => (event.target.checked ? save({}) : setSample(undefined))}
          data-testid="test-sample-http-enabled"
        />
        Answer {what} with this sample
      </label>
      {sample !== undefined && (
        <>
          <label className="block text-[11px] text-slate-600">
            Status
            <input
              className={`${inputClass} mt-0.5`}
              inputMode="numeric"
              value={statusText}
              data-testid="test-sample-http-status"
              onChange={(event) => {
                setStatusText(event.target.value);
                save({ status: event.target.value });
              }}
            />
          </label>
          <label className="block text-[11px] text-slate-600">
            Headers (one <code>name: value</code> a line)
            <textarea
              className={`${inputClass} mt-0.5 font-mono text-xs`}
              rows={2}
              value={headersText}
              data-testid="test-sample-http-headers"
              onChange={(event) => {
                setHeadersText(event.target.value);
                save({ headers: event.target.value });
              }}
            />
          </label>
          <div className="space-y-0.5 text-[11px] text-slate-600">
            <span>Body (JSON, or text when it is not JSON)</span>
            <CodeEditor
              language="json"
              jsonOrText
              label="Sample body"
              value={bodyText}
              testId="test-sample-http-body"
              onChange={(text) => {
                setBodyText(text);
                save({ body: text });
              }}
            />
          </div>
        </>
      )}
      {problem && (
        <p className="text-[11px] text-red-700" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
