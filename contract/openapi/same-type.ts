/**
 * The OpenAPI document describes answers with zod schemas, while the contract declares most
 * answers as TypeScript interfaces (the routes build them). Each answer schema is checked against
 * its interface with SameWireType, so the document cannot drift from what the routes send: a
 * field added, removed, renamed, made optional or retyped on one side fails to compile.
 */

/** A type with its intersections and interfaces flattened into plain object types, all the way down. */
export type DeepSimplified<T> = T extends readonly unknown[]
  ? { [K in keyof T]: DeepSimplified<T[K]> }
  : T extends object
    ? { [K in keyof T]: DeepSimplified<T[K]> }
    : T;

/**
 * True only when A and B are the same type once flattened: mutual assignability is not enough,
 * since it lets an optional field be missing on one side.
 */
export type SameWireType<A, B> = (<T>() => T extends DeepSimplified<A> ? 1 : 2) extends <T>() => T extends DeepSimplified<B> ? 1 : 2 ? true : false;
