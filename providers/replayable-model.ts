import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { wrapLanguageModel, type LanguageModelMiddleware } from "ai";
import { TrellisError, type BlockMemo } from "@/core";
import { requestFingerprint, type RequestFingerprint, whatDiffers } from "./request-fingerprint";

/** A model answer kept in a block's memo: the provider's stream, part by part, as JSON, and what it was asked (a replay checks it). */
interface RecordedStream {
  parts: unknown[];
  request?: RequestFingerprint;
}

interface RecordedGenerate {
  generate: Record<string, unknown>;
  request?: RequestFingerprint;
}

/**
 * A replay answers only from recordings: a call with none, or whose request differs from the
 * recorded one, is refused before any provider is reached, naming what changed.
 */
function checkReplayable(
  memo: BlockMemo,
  key: string,
  recorded: { request?: RequestFingerprint } | undefined,
  asked: RequestFingerprint,
): void {
  if (!memo.replaying) return;
  const call = Number(key.split("#")[1] ?? 0) + 1;
  if (!recorded) {
    throw new TrellisError(
      "not_recorded",
      `Not recorded: the replayed run made no model call ${call} in this block, so there is no answer to replay; nothing was sent to the provider. Run the workflow to get a real answer.`,
    );
  }
  const changed = recorded.request ? whatDiffers(recorded.request, asked) : [];
  if (changed.length > 0) {
    throw new TrellisError(
      "not_recorded",
      `Not recorded: model call ${call} of this block asks something else than the replayed run did (its ${changed.join(", ")} changed), so there is no answer to replay; nothing was sent to the provider. Run the workflow to get a real answer.`,
    );
  }
}

/** JSON turned a part's Date (response metadata) into a string; the SDK expects a Date back. */
function revive(part: unknown): LanguageModelV4StreamPart {
  const value = part as LanguageModelV4StreamPart & { timestamp?: unknown };
  if (value.type === "response-metadata" && typeof value.timestamp === "string")
    return { ...value, timestamp: new Date(value.timestamp) };
  return value;
}

function replay(parts: readonly unknown[]): ReadableStream<LanguageModelV4StreamPart> {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (index < parts.length) controller.enqueue(revive(parts[index++]));
      else controller.close();
    },
  });
}

/**
 * Passes the stream through and, once the answer finished cleanly, stores it before the finish
 * reaches the SDK: the tool calls it asks for run only after the answer is durable.
 */
function recording(
  source: ReadableStream<LanguageModelV4StreamPart>,
  store: (parts: unknown[]) => Promise<void>,
): ReadableStream<LanguageModelV4StreamPart> {
  const reader = source.getReader();
  const parts: unknown[] = [];
  let failed = false;
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        if (value.type === "error") failed = true;
        if (value.type !== "raw") parts.push(value);
        if (value.type === "finish" && !failed) await store(parts);
        controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel(reason) {
      await reader.cancel(reason);
    },
  });
}

function memoMiddleware(memo: BlockMemo): LanguageModelMiddleware {
  return {
    async wrapStream({ doStream, params }) {
      const key = memo.next("model");
      const recorded = memo.recall(key) as RecordedStream | undefined;
      const request = requestFingerprint(params);
      checkReplayable(memo, key, recorded?.parts ? recorded : undefined, request);
      if (recorded?.parts) return { stream: replay(recorded.parts) };
      const result = await doStream();
      return {
        ...result,
        stream: recording(result.stream, (parts) => memo.remember(key, { parts, request } satisfies RecordedStream)),
      };
    },
    async wrapGenerate({ doGenerate, params }) {
      const key = memo.next("model");
      const recorded = memo.recall(key) as RecordedGenerate | undefined;
      const request = requestFingerprint(params);
      checkReplayable(memo, key, recorded?.generate ? recorded : undefined, request);
      if (recorded?.generate) {
        const response = recorded.generate.response as { timestamp?: string } | undefined;
        return {
          ...recorded.generate,
          ...(response?.timestamp ? { response: { ...response, timestamp: new Date(response.timestamp) } } : {}),
        } as unknown as Awaited<ReturnType<typeof doGenerate>>;
      }
      const result = await doGenerate();
      const { request: _request, ...kept } = result;
      await memo.remember(key, {
        generate: JSON.parse(JSON.stringify({ ...kept, response: { ...kept.response, body: undefined } })),
        request,
      } satisfies RecordedGenerate);
      return result;
    },
  };
}

/**
 * A model whose answers a resumed attempt at the same block gets again from the block's memo,
 * in call order, instead of from the provider: a run that went on after a pause or a crash does
 * not pay twice for a call that had finished. Calls past the recorded ones go to the provider,
 * except in a replay (`memo.replaying`), where they fail `not_recorded`.
 */
export function replayableModel(model: LanguageModelV4, memo: BlockMemo): LanguageModelV4 {
  return wrapLanguageModel({ model, middleware: memoMiddleware(memo) });
}
