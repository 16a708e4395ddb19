import "server-only";
import {
  addressLimitKey,
  clientAddressOf,
  type AttemptLimiter,
  type BackoffRule,
  type LimitedKey,
  type TrustedProxies,
} from "@/lib/auth";
import { RequestError } from "@/lib/http/errors";

/**
 * Guesses at a public chat's password (docs/OPERATIONS.md, "Password guesses"), counted by
 * backoff per visitor (the browser's cookie: free to throw away, so only a courtesy), per client
 * address on the chat, and per chat across everyone (what bounds a guesser with many addresses;
 * its waits stay short, since honest visitors share them). Chats' keys are their own: no guess
 * at a chat touches the limits of anyone's sign-in.
 */
export const CHAT_PASSWORD_RULES = {
  visitor: { freeFailures: 5, firstDelayS: 1, maxDelayS: 900, forgetAfterS: 3600 },
  address: { freeFailures: 10, firstDelayS: 1, maxDelayS: 900, forgetAfterS: 3600 },
  chat: { freeFailures: 100, firstDelayS: 1, maxDelayS: 60, forgetAfterS: 3600 },
} as const satisfies Record<string, BackoffRule>;

export function chatPasswordGuesses(limiter: AttemptLimiter, trustedProxies: () => TrustedProxies) {
  return {
    /**
     * Checks a guess with `verify` unless one of its keys is waiting.
     * @throws too_many_attempts (429, Retry-After) while waiting: the password is not checked then
     */
    async check(request: Request, chatId: string, visitorId: string, verify: () => Promise<boolean>): Promise<boolean> {
      const address = addressLimitKey(clientAddressOf(request, trustedProxies()));
      const keys: LimitedKey[] = [
        { key: `chat|visitor|${chatId}|${visitorId}`, rule: CHAT_PASSWORD_RULES.visitor },
        { key: `chat|address|${chatId}|${address}`, rule: CHAT_PASSWORD_RULES.address },
        { key: `chat|chat|${chatId}`, rule: CHAT_PASSWORD_RULES.chat },
      ];
      const decision = await limiter.attempt(keys);
      if (!decision.allowed) {
        const error = new RequestError(
          "too_many_attempts",
          `Too many wrong passwords for this chat: try again in ${decision.retryAfterS} second${decision.retryAfterS === 1 ? "" : "s"}.`,
        );
        error.responseExtra = { retryAfter: decision.retryAfterS };
        throw error;
      }
      const right = await verify();
      if (right) await limiter.succeeded(decision.ticket);
      return right;
    },
  };
}

export type ChatPasswordGuesses = ReturnType<typeof chatPasswordGuesses>;
