import cl100kBase from "js-tiktoken/ranks/cl100k_base";
import { BytePairEncoder } from "@/providers/encoding";

/**
 * Chunk sizes are counted with cl100k_base, the encoding of OpenAI's embedding models
 * (text-embedding-3-*), so a 1,000-token chunk is 1,000 tokens to the model that embeds it.
 * The ranks ship inside js-tiktoken; the encoder is built once, on first use. It is the n log n
 * encoder of providers/ (js-tiktoken's own is quadratic in a long word, and documents have those).
 */
let encoder: BytePairEncoder | undefined;

function getEncoder(): BytePairEncoder {
  encoder ??= new BytePairEncoder(cl100kBase);
  return encoder;
}

export const CHUNK_TOKENIZER = "cl100k_base";

export function countTokens(text: string): number {
  return text ? getEncoder().count(text) : 0;
}

export function encodeTokens(text: string): number[] {
  return getEncoder().encode(text);
}

export function decodeTokens(tokens: number[]): string {
  return getEncoder().decode(tokens);
}
