export const FREE_BYTES_TO_CREATE: number;
export const FREE_BYTES_TO_MIGRATE: number;
export function assertRoomToMigrate(databaseDir: string): void;
export function describeMigrationError(error: unknown, databaseDir?: string): string;
