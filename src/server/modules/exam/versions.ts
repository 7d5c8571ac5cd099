/**
 * Question versions (migration 0042): the database keeps them (triggers on
 * `exam_question`); the back office names who made each one and reads a question's history.
 * Their statements are repository.ts's: `actAs` names the admin whose writes to questions follow
 * in a transaction (the versions they make record them), `questionVersions` reads a question's
 * versions, newest first.
 */
export { actAs, questionVersions } from "./repository.ts";
