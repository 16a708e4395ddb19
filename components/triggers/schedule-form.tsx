"use client";

import { CalendarClock, Plus } from "lucide-react";
import { useMemo, useState, useSyncExternalStore } from "react";
import { useQuery } from "@tanstack/react-query";
import { CodeEditor } from "@/components/code-editor";
import { api, type CreateScheduleRequest } from "@/contract";
import { browserTimeZone, fireTimeText, timeZoneChoices } from "./schedule-format";
import { useSchedulePreview } from "./use-schedules";
import { FIELD_INPUT_CLASS, FormField } from "@/components/ui/form-field";

const noSubscription = () => () => {};

/** True in the browser after hydration: the zone list and the browser's zone differ from the server's. */
function useInBrowser(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/** The start inputs box: empty is `{}`; anything else must be a JSON object. */
function parseInput(text: string): { input: Record<string, unknown> } | { error: string } {
  if (!text.trim()) return { input: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === "object" && !Array.isArray(value))
      return { input: value as Record<string, unknown> };
    return { error: 'Start inputs must be a JSON object, such as {"topic": "news"}.' };
  } catch (error) {
    return { error: `Start inputs are not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** What the preview shows under the expression: the next five times, the problem, or a hint. */
function Preview({ cron, timezone }: { cron: string; timezone: string }) {
  const preview = useSchedulePreview(cron, timezone);
  if (preview.empty) {
    return <p className="text-xs text-slate-500">Type an expression to see when it fires.</p>;
  }
  if (preview.isError && !preview.typing) {
    return (
      <p role="alert" className="text-sm text-red-700" data-testid="schedule-preview-error">
        {preview.error.message}
      </p>
    );
  }
  if (!preview.data) return <p className="text-xs text-slate-500">Working out the next times…</p>;
  return (
    <div className={preview.typing || preview.isFetching ? "opacity-60" : ""}>
      <p className="text-xs text-slate-600">Next five fire times ({timezone}):</p>
      <ol className="mt-1 list-inside list-decimal font-mono text-xs text-slate-800" data-testid="schedule-preview">
        {preview.data.nextRuns.map((at) => (
          <li key={at}>{fireTimeText(at, timezone)}</li>
        ))}
      </ol>
    </div>
  );
}

/**
 * The form for a new schedule: the cron expression, its time zone and optional start inputs. The
 * next five fire times follow the typing; a bad expression shows the server's message naming it.
 */
export function ScheduleForm({
  workflowId,
  pending,
  onCreate,
}: {
  workflowId: string;
  pending: boolean;
  onCreate(request: CreateScheduleRequest): Promise<boolean>;
}) {
  // A fire can also evaluate the active deployment over one of the workflow's suites.
  const suites = useQuery({
    queryKey: ["suites", workflowId],
    queryFn: async () => (await api.call("listSuites", { params: { id: workflowId } })).suites,
  });
  const [suiteId, setSuiteId] = useState("");
  const inBrowser = useInBrowser();
  const zones = useMemo(() => (inBrowser ? timeZoneChoices() : ["UTC"]), [inBrowser]);
  const [cron, setCron] = useState("");
  const [chosenZone, setChosenZone] = useState<string | null>(null);
  const [inputText, setInputText] = useState("");
  const [inputError, setInputError] = useState<string | null>(null);
  const timezone = chosenZone ?? (inBrowser ? browserTimeZone() : "UTC");
  return (
    <form
      className="space-y-3 rounded border border-slate-200 bg-white p-3"
      aria-label="New schedule"
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = parseInput(inputText);
        if ("error" in parsed) {
          setInputError(parsed.error);
          return;
        }
        setInputError(null);
        void onCreate({ cron: cron.trim(), timezone, input: parsed.input, ...(suiteId ? { suiteId } : {}) }).then(
          (done) => {
            if (!done) return;
            setCron("");
            setInputText("");
          },
        );
      }}
    >
      <div className="flex flex-wrap items-end gap-3">
        <FormField label="Cron expression" className="min-w-56 flex-1">
          <input
            className={`${FIELD_INPUT_CLASS} font-mono`}
            placeholder="0 9 * * 1-5"
            spellCheck={false}
            autoComplete="off"
            value={cron}
            onChange={(event) => setCron(event.target.value)}
          />
        </FormField>
        <FormField label="Time zone">
          <select
            className={FIELD_INPUT_CLASS}
            value={timezone}
            onChange={(event) => setChosenZone(event.target.value)}
          >
            {(zones.includes(timezone) ? zones : [timezone, ...zones]).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </FormField>
        {suites.data && suites.data.length > 0 && (
          <FormField label="Each fire">
            <select
              className={FIELD_INPUT_CLASS}
              data-testid="schedule-suite"
              value={suiteId}
              onChange={(event) => setSuiteId(event.target.value)}
            >
              <option value="">Runs the active deployment</option>
              {suites.data.map((suite) => (
                <option key={suite.id} value={suite.id}>
                  Evaluates it over {suite.name}
                </option>
              ))}
            </select>
          </FormField>
        )}
        <button type="submit" className="btn-primary" disabled={pending || !cron.trim()}>
          <Plus size={14} aria-hidden /> Create schedule
        </button>
      </div>
      <p className="flex items-center gap-1 text-xs text-slate-500">
        <CalendarClock size={12} aria-hidden />5 fields (minute hour day-of-month month day-of-week), or 6 with seconds
        first: <code>*/30 * * * * *</code> fires every 30 seconds.
      </p>
      <Preview cron={cron} timezone={timezone} />
      <div className="flex flex-col gap-1 text-xs text-slate-600">
        Start inputs (optional JSON object)
        <CodeEditor
          language="json"
          label="Start inputs"
          placeholder='{"topic": "daily digest"}'
          value={inputText}
          onChange={setInputText}
          minLines={2}
        />
      </div>
      {inputError && (
        <p role="alert" className="text-sm text-red-700">
          {inputError}
        </p>
      )}
    </form>
  );
}
