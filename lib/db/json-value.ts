import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { InvalidInputError } from "./errors";

/**
 * A value as it will read back from a JSON column: undefined members dropped, dates as strings.
 * Values JSON cannot hold (BigInt, cycles) are refused with the field's name.
 */
export function toJsonValue(value: unknown, field: string): Prisma.InputJsonValue {
  try {
    return JSON.parse(JSON.stringify(value ?? null)) as Prisma.InputJsonValue;
  } catch (error) {
    throw new InvalidInputError(
      `${field} cannot be stored as JSON: ${error instanceof Error ? error.message : String(error)}`,
      field,
    );
  }
}

/** For nullable JSON columns: null and undefined become SQL NULL. */
export function toNullableJson(value: unknown, field: string): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null || value === undefined ? Prisma.DbNull : toJsonValue(value, field);
}

export function toIso(date: Date): string;
export function toIso(date: Date | null): string | null;
export function toIso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}

/** Accepts a Date or an ISO string from callers, refusing anything that is not a real instant. */
export function toDate(value: Date | string, field: string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new InvalidInputError(`${field} is not a valid date: ${String(value)}`, field);
  return date;
}

export function isPrismaError(error: unknown, code: string): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === code;
}
