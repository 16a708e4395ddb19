import { z } from "zod";

/** A moment as the API writes it: ISO 8601 in UTC (`Date.prototype.toISOString`). */
export const timestampSchema = z.iso.datetime();
