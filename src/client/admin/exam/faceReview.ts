import { msg } from "@lingui/core/macro";
import { ScanFace } from "lucide-react";
import type { CrudDefinition } from "../crud/types.ts";
import { FaceTimeline } from "./FaceTimeline.tsx";
import { FACE_FLAG_OPTIONS } from "./options.ts";

/**
 * Face review (`exam/faceReview`, beside the marking queue): official attempts of rooms with a
 * face rule, their failed checks and flag; each attempt's snapshots on a timeline.
 */
const faceReview: CrudDefinition = {
  path: "exam/faceReview",
  title: msg`Face review`,
  quickSearch: msg`ID, member, room`,
  buttons: ["refresh", "columns", "search"],
  columns: [
    { field: "id", label: msg`Attempt`, render: "number", sortable: true },
    { field: "username", label: msg`Member`, search: "text" },
    { field: "room_title", label: msg`Room`, search: "text" },
    { field: "started_at", label: msg`Started`, render: "datetime", sortable: true, search: "datetime" },
    { field: "checks", label: msg`Checks`, render: "number" },
    { field: "face_failures", label: msg({ message: "Failed", context: "face checks failed" }), render: "number", sortable: true },
    { field: "missed", label: msg({ message: "Missed", context: "face checks missed" }), render: "number" },
    { field: "min_similarity", label: msg`Lowest similarity`, cell: (r) => (r.min_similarity === null || r.min_similarity === undefined ? "–" : Number(r.min_similarity).toFixed(2)) },
    { field: "face_flag", label: msg`Face check`, render: "tag", options: FACE_FLAG_OPTIONS, search: "select" },
  ],
  rowActions: [{ key: "timeline", label: msg`Timeline`, icon: ScanFace, action: "index", component: FaceTimeline, size: "xl" }],
};

export default faceReview;
