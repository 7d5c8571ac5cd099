import { msg } from "@lingui/core/macro";
import { createElement } from "react";
import { PenLine, ScanFace } from "lucide-react";
import type { CrudDefinition } from "../crud/types.ts";
import { FlaggedFaceAttempts } from "./FlaggedFaceAttempts.tsx";
import { MarkDialog } from "./MarkDialog.tsx";
import { PageLeaveSummary, pageLeavesOf } from "./PageLeaves.tsx";
import { MARK_STATUS_OPTIONS } from "./options.ts";

/** The marking queue (`exam/marking`): short answers of closed attempts; each marked once with a score and a comment. */
const marking: CrudDefinition = {
  path: "exam/marking",
  title: msg`Marking`,
  quickSearch: msg`ID, member, question, room, comment`,
  buttons: ["refresh", "columns", "search"],
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "username", label: msg`Member`, search: "text" },
    { field: "room_title", label: msg`Room`, cell: (r) => String(r.room_title ?? "–"), search: "text" },
    { field: "stem", label: msg`Question`, search: "text" },
    { field: "answer", viaHook: true, label: msg`Answer` },
    { field: "status", label: msg`Status`, render: "tag", options: MARK_STATUS_OPTIONS, search: "select" },
    { field: "score", label: msg`Score`, cell: (r) => (r.score === null ? "–" : `${String(r.score)} / ${String(r.max_score)}`) },
    // How often and how long the member left the exam page during the attempt.
    { field: "page_leaves", viaHook: true, label: msg`Page leaves`, cell: (r) => createElement(PageLeaveSummary, pageLeavesOf(r)) },
    { field: "comment", label: msg`Comment`, hidden: true },
    { field: "create_time", label: msg`Queued`, render: "datetime", sortable: true, search: "datetime" },
  ],
  rowActions: [{ key: "mark", label: msg`Mark`, icon: PenLine, action: "mark", component: MarkDialog, size: "lg" }],
  // Attempts a face rule flagged or stopped wait here too, for whoever may review them.
  toolbarActions: [{ key: "face", label: msg`Face checks to review`, icon: ScanFace, action: "exam/faceReview/index", component: FlaggedFaceAttempts, size: "lg" }],
};

export default marking;
