import { msg } from "@lingui/core/macro";
import { Gavel } from "lucide-react";
import type { CrudDefinition } from "../crud/types.ts";
import { DecideDialog } from "./MarkDialog.tsx";
import { LATE_STATUS_OPTIONS } from "./options.ts";

/** Late official answers (`exam/lateAnswer`): made before the deadline, received after it; a marker accepts or rejects each. */
const lateAnswers: CrudDefinition = {
  path: "exam/lateAnswer",
  title: msg`Late answers`,
  quickSearch: msg`ID, member, question, room`,
  buttons: ["refresh", "columns", "search"],
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true },
    { field: "username", label: msg`Member`, search: "text" },
    { field: "room_title", label: msg`Room`, cell: (r) => String(r.room_title ?? "–") },
    { field: "stem", label: msg`Question` },
    { field: "status", label: msg`Status`, render: "tag", options: LATE_STATUS_OPTIONS, search: "select" },
    { field: "claimed_at", label: msg`Made at (device)`, cell: (r) => (r.claimed_at ? new Date(Number(r.claimed_at)).toLocaleString() : "–") },
    { field: "received_at", label: msg`Received`, cell: (r) => new Date(Number(r.received_at)).toLocaleString() },
  ],
  rowActions: [{ key: "decide", label: msg`Decide`, icon: Gavel, action: "decide", component: DecideDialog }],
};

export default lateAnswers;
