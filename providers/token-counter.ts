import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";

/**
 * Counts tokens with the o200k_base encoding (GPT-4o family). The ranks ship inside js-tiktoken,
 * so counting works offline. The encoder is built on first use: parsing the ranks costs ~100 ms.
 */
let encoder: Tiktoken | undefined;

function getEncoder(): Tiktoken {
  encoder ??= new Tiktoken(o200kBase);
  return encoder;
}

export function countTokens(text: string): number {
  if (!text) return 0;
  return getEncoder().encode(text, "all").length;
}

export const TOKENIZER_NAME = "o200k_base";
