import "server-only";
import { isAPIError } from "better-auth/api";
import type { SessionUser } from "@/contract";
import { TrellisError } from "@/executor";
import { getAuth, type NewUser, type TrellisAuth } from "./auth";

/**
 * Creates a user who accepted an invitation: public sign-up is closed once the owner exists, so
 * this is how everyone after the owner gets an account. The caller has checked the invitation;
 * this checks the password rules and that the email is free (`invalid_input` otherwise, with a
 * message for the user). Signs nobody in: the invitee signs in next (POST /api/auth/sign-in/email).
 */
export async function createUserByInvitation(user: NewUser, auth: TrellisAuth = getAuth()): Promise<SessionUser> {
  try {
    return await auth.createUser(user);
  } catch (error) {
    if (isAPIError(error) && error.statusCode < 500)
      throw new TrellisError("invalid_input", error.message || "The user could not be created.");
    throw error;
  }
}
