import { msg } from "@lingui/core/macro";
import { applyLessonProgress } from "../../modules/course/index.ts";
import { RejectOp, type OpHandlerMap } from "../registry.ts";

/** `lesson.progress`: the course module's rules (modules/course/progress.ts). */
export const courseOpHandlers: OpHandlerMap<"lesson.progress"> = {
  async "lesson.progress"({ tx, userId }, op) {
    const outcome = await applyLessonProgress(tx, userId, op);
    if (outcome === "unknown-lesson") throw new RejectOp(msg`Unknown lesson`);
    if (outcome === "not-enrolled") throw new RejectOp(msg`Not enrolled in this lesson's course (and the lesson is not a free preview)`);
  },
};
