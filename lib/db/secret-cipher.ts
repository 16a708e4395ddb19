import "server-only";
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { SecretUnreadableError } from "./errors";

/**
 * AES-256-GCM for stored secrets. Each value gets a fresh 96-bit IV; the secret's name is the
 * additional authenticated data, so a ciphertext moved to another name fails to decrypt.
 */

export interface SealedSecret {
  ciphertext: Uint8Array<ArrayBuffer>;
  iv: Uint8Array<ArrayBuffer>;
  authTag: Uint8Array<ArrayBuffer>;
}

export function encryptSecret(key: Buffer, name: string, plaintext: string): SealedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(name, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return { ciphertext: bytes(ciphertext), iv: bytes(iv), authTag: bytes(cipher.getAuthTag()) };
}

/** @throws SecretUnreadableError when the key is wrong or the stored bytes were altered */
export function decryptSecret(key: Buffer, name: string, sealed: SealedSecret): string {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.iv);
    decipher.setAAD(Buffer.from(name, "utf8"));
    decipher.setAuthTag(sealed.authTag);
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretUnreadableError(name);
  }
}

function bytes(buffer: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(buffer);
}
