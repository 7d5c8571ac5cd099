import type { Kysely } from "kysely";
import type { Database } from "../server/db/database.ts";

/** The path of src/server/db/schema.generated.ts. */
export const outFile: string;

export interface ServerModules {
  openMemoryPGlite(): Promise<{ db: Database }>;
  migrate(db: Database): Promise<string[]>;
  kyselyOf(db: Database): Kysely<unknown>;
}

/** The text of the generated database types, from a freshly migrated in-memory PGlite. */
export function generateSchemaTypes(modules: ServerModules): Promise<string>;

/** Why `committed` is not `generated` (the first differing line), or null when they are the same text. */
export function schemaTypesDrift(committed: string, generated: string): string | null;
