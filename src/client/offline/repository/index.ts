/**
 * The offline repository, by aggregate: the one way screens read and change the member's data on
 * this device (ARCHITECTURE.md "The offline loop"). Screens read through the named reads here
 * (directly or inside `useOfflineQuery`) and never touch a Dexie table themselves (lint).
 */
export * from "./banks.ts";
export * from "./certificates.ts";
export * from "./lessons.ts";
export * from "./mockAttempts.ts";
export * from "./official.ts";
export * from "./outbox.ts";
export * from "./pageLeaves.ts";
export * from "./practice.ts";
export { gradedOf, toOp, type RepoOptions } from "./shared.ts";
export * from "./faceChecks.ts";
export * from "./review.ts";
