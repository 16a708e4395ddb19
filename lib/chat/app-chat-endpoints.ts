import "server-only";
import { hkdfSync } from "node:crypto";
import { auditRequestsTo } from "@/lib/audit";
import { callerOf, createAttemptLimiter, trustedProxiesFromEnvironment } from "@/lib/auth";
import { getPrisma, getRepositories, loadSecretKey, resolveDatabaseConfig } from "@/lib/db";
import { getRuntime } from "@/lib/runtime/runtime";
import { chatAccessTokens } from "./chat-access";
import { chatPasswordGuesses } from "./chat-password-guesses";
import { chatEndpoints, chatSettingsEndpoints } from "./chat-endpoints";
import { ChatRepository } from "./chat-repository";
import { createChatService } from "./chat-service";
import { createChatSettings } from "./chat-settings";

let accessKey: Buffer | undefined;

/** Signs chat access cookies: derived from Trellis's secret key with its own label, so it equals no other key. */
function chatAccessKey(): Buffer {
  accessKey ??= Buffer.from(
    hkdfSync(
      "sha256",
      loadSecretKey({ env: process.env, dataDir: resolveDatabaseConfig().dataDir }),
      Buffer.alloc(0),
      "trellis/chat/access-cookie/v1",
      32,
    ),
  );
  return accessKey;
}

const tokens = chatAccessTokens(chatAccessKey);

/** The chat settings endpoints over the app's database. */
export const appChatSettingsEndpoints = chatSettingsEndpoints(
  () => createChatSettings(new ChatRepository(getPrisma()), getRepositories()),
  auditRequestsTo(getPrisma),
);

/** The public chat endpoints over the app's runtime. */
export const appChatEndpoints = chatEndpoints(() => {
  const runtime = getRuntime();
  return createChatService({
    chats: new ChatRepository(getPrisma()),
    repositories: runtime.repositories,
    runs: runtime.runs,
    access: tokens,
    passwordGuesses: chatPasswordGuesses(createAttemptLimiter(getPrisma()), trustedProxiesFromEnvironment),
    signedIn: callerOf,
  });
});
