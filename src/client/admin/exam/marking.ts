import { msg } from "@lingui/core/macro";
import { createElement } from "react";
import { PenLine, ScanFace } from "lucide-react";
import { markingDecl } from "../../../shared/admin/resources/exam.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { FlaggedFaceAttempts } from "./FlaggedFaceAttempts.tsx";
import { MarkDialog } from "./MarkDialog.tsx";
import { PageLeaveSummary, pageLeavesOf } from "./PageLeaves.tsx";

/** The marking queue (`exam/marking`): short answers of closed attempts; each marked once with a score and a comment. */
const marking: CrudDefinition = {
  ...declaredScreen(markingDecl, {
    room_title: (r) => String(r.room_title ?? "–"),
    score: (r) => (r.score === null ? "–" : `${String(r.score)} / ${String(r.max_score)}`),
    page_leaves: (r) => createElement(PageLeaveSummary, pageLeavesOf(r)),
  }),
  buttons: ["refresh", "columns", "search"],
  rowActions: [{ key: "mark", label: msg`Mark`, icon: PenLine, action: "mark", component: MarkDialog, size: "lg" }],
  // Attempts a face rule flagged or stopped wait here too, for whoever may review them.
  toolbarActions: [{ key: "face", label: msg`Face checks to review`, icon: ScanFace, action: "exam/faceReview/index", component: FlaggedFaceAttempts, size: "lg" }],
};

export default marking;
