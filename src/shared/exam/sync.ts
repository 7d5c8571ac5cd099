/**
 * The sync protocol moved to src/shared/sync/ (protocol.ts, ops.ts, exam.ts, course.ts); this
 * path re-exports it for the modules that still import it from here.
 */
export * from "../sync/protocol.ts";
export * from "../sync/ops.ts";
export { MAX_ATTEMPT_ANSWERS, examStateSchema, givenAnswerSchema, type ExamState } from "../sync/exam.ts";
