/** A hash of every build input (src, public, locales, the configs). */
export function inputHash(): string;
/** Whether dist/ is missing or was built from other inputs than the tree's. */
export function isStale(): boolean;
/** Builds the client and the server into dist/ and records the inputs' hash. */
export function build(): void;
