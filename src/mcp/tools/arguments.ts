// @module Input fields and annotations several tools share. Types only: ranges and formats are checked by the REST route, so a bad value gets the REST error.
import { z } from "zod";

export const application = z
  .string()
  .min(1)
  .describe("Application name exactly as list_applications gives it (any characters, `/` included).");

// Digits only: anything else could not name one object and, as a path segment, could reach another route ("..").
export const objectId = z
  .string()
  .regex(/^[0-9]+$/)
  .describe(
    "Permanent object id: a string of 1 to 19 decimal digits, as find_objects, list_callees or list_level_nodes (level 5) give it. Stable across analyses.",
  );

export const withSourceLocations = z
  .boolean()
  .optional()
  .describe("true adds sourceLocations (file id, start and end line) where the source code service has them.");

export const date = z
  .string()
  .optional()
  .describe("Read the newest analysis at or before this RFC 3339 date-time (default: the newest analysis).");

/** Every tool only reads, and only this server's data. */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;
