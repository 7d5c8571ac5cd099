import { msg } from "@lingui/core/macro";
import { declareResource, enumField, refFields, STANDARD_FIELDS, standardColumns, standardDecls, STATUS_OPTIONS, type FieldOption } from "../fields.ts";

/** Papers, their question rows, exam rooms and the two marking queues, as both sides list them. */

export const ROW_KINDS: readonly FieldOption[] = [
  { value: "fixed", label: msg`Fixed question` },
  { value: "draw", label: msg`Draw rule` },
];

/** The five graded kinds of question. */
export const QUESTION_TYPES: readonly FieldOption[] = [
  { value: "single", label: msg`Single choice` },
  { value: "multiple", label: msg`Multiple choice` },
  { value: "judge", label: msg`True or false` },
  { value: "fill", label: msg`Fill in the blanks` },
  { value: "short", label: msg`Short answer` },
];

export const REVIEW_POLICIES: readonly FieldOption[] = [
  { value: "submitted", label: msg`After submission` },
  { value: "closed", label: msg`After the room closes` },
  { value: "never", label: msg`Never` },
];

export const LATE_POLICIES: readonly FieldOption[] = [
  { value: "review", label: msg`Keep for a marker` },
  { value: "refuse", label: msg`Refuse` },
];

export const MARK_STATUSES: readonly FieldOption[] = [
  { value: "pending", label: msg`Waiting` },
  { value: "marked", label: msg`Marked` },
];

export const LATE_STATUSES: readonly FieldOption[] = [
  { value: "pending", label: msg`Waiting` },
  { value: "accepted", label: msg`Accepted` },
  { value: "rejected", label: msg`Rejected` },
];

/** Papers (exam/paper): marks, time in seconds, grading options; what their rows add up to and whether members may practise on them, from the list hook. */
export const paperDecl = declareResource({
  rule: "exam/paper",
  title: msg`Papers`,
  fields: {
    title: { type: "text", label: msg`Title` },
    total_score: { type: "int", label: msg`Total score` },
    pass_score: { type: "int", label: msg`Pass score` },
    duration: { type: "int", label: msg`Duration (min)` },
    shuffle_options: { type: "bool", label: msg`Shuffle options` },
    partial_credit: { type: "bool", label: msg`Partial credit for multiple choice` },
    ...standardDecls("status", "create_time"),
  },
  quickSearch: { fields: ["id", "title"], label: msg`ID, title` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "title", search: "text", sortable: true },
    { field: "total_score", render: "number", sortable: true },
    { hook: "rows_total", label: msg`Questions add up to` },
    { field: "pass_score", render: "number" },
    { hook: "withholding", label: msg`Mock paper` },
    { field: "duration", hidden: true },
    { field: "shuffle_options", render: "switch", hidden: true },
    ...standardColumns({ status: { search: true }, create_time: { sortable: true, hidden: true } }),
  ],
});

/** Question rows of papers (exam/paperRow): a fixed question (perhaps a pinned version) or a draw rule, in paper order. */
export const paperRowDecl = declareResource({
  rule: "exam/paperRow",
  title: msg`Question rows`,
  fields: {
    ...refFields("paper", "title", msg`Paper`),
    kind: enumField(ROW_KINDS, msg`Kind`),
    question_id: { type: "int", label: msg`Question` },
    question_stem: { type: "text", label: msg`Question` },
    question_type_fixed: { type: "text" },
    question_version: { type: "int", label: msg`Version` },
    question_latest_version: { type: "int" },
    classify_id: { type: "int", label: msg`Classify` },
    classify_title: { type: "text", label: msg`Classify` },
    question_type: { type: "text", label: msg`Type`, options: QUESTION_TYPES },
    difficulty: { type: "int", label: msg`Difficulty` },
    count: { type: "int", label: msg`Count` },
    score: { type: "int", label: msg`Score each` },
    weigh: { ...STANDARD_FIELDS.weigh, label: msg`Weigh` },
    remark: { type: "text", label: msg`Note` },
  },
  quickSearch: { fields: ["id", "paper_title", "question_stem", "classify_title", "remark"], label: msg`ID, paper, question, classify, note` },
  sortable: true,
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "paper_id", search: "select", remote: { path: "exam/paper", labelField: "title" } },
    { field: "kind", render: "tag", search: "select" },
    { field: "question_stem" },
    { field: "question_version" },
    { field: "classify_title" },
    { field: "question_type", render: "tag" },
    { field: "difficulty" },
    { field: "count", render: "number" },
    { field: "score", render: "number" },
    { hook: "subtotal", label: msg`Subtotal`, render: "number" },
    { field: "remark", search: "text", hidden: true },
    ...standardColumns({ weigh: { sortable: true, hidden: true } }),
  ],
});

/** Exam rooms (exam/room): a paper, its open window, attempts, pass mark, who may sit it, what members see after. */
export const roomDecl = declareResource({
  rule: "exam/room",
  title: msg`Exam rooms`,
  fields: {
    title: { type: "text", label: msg`Title` },
    ...refFields("paper", "title", msg`Paper`),
    start_time: { type: "time", label: msg`Opens` },
    end_time: { type: "time", label: msg`Closes` },
    duration: { type: "int", label: msg`Time per attempt (minutes)` },
    attempts_allowed: { type: "int", label: msg`Attempts allowed` },
    pass_score: { type: "int", label: msg`Pass score` },
    user_group_id: { type: "int", label: msg`Member group (empty: every member)` },
    group_name: { type: "text", label: msg`Member group` },
    review_policy: enumField(REVIEW_POLICIES, msg`Answers shown`),
    late_policy: enumField(LATE_POLICIES, msg`Answers arriving after the deadline`),
    ...refFields("face_rule", "name", msg`Face rule`),
    shuffle_questions: { type: "bool", label: msg`Shuffle questions` },
    ...standardDecls("status"),
    ...refFields("company", "name", msg`Company`),
  },
  quickSearch: { fields: ["id", "title", "paper_title"], label: msg`ID, title, paper` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "title", search: "text", sortable: true },
    { field: "paper_id", search: "select", remote: { path: "exam/paper", labelField: "title" } },
    { field: "start_time", render: "datetime", sortable: true, search: "datetime" },
    { field: "end_time", render: "datetime", sortable: true },
    { hook: "attempts", label: msg`Attempts`, render: "number" },
    // Practice questions it keeps out and until when, a paper that no longer adds up, its overrides.
    { hook: "notes", label: msg`Notes` },
    { field: "shuffle_questions", render: "switch", hidden: true },
    { field: "pass_score", render: "number", hidden: true },
    { field: "company_id", search: "select", remote: { path: "org/company", labelField: "name" }, hidden: true },
    { field: "group_name", hidden: true },
    { field: "review_policy", render: "tag", search: "select" },
    { field: "face_rule_id", search: "select", remote: { path: "org/faceRule", labelField: "name" }, hidden: true },
    ...standardColumns({ status: { search: true } }),
  ],
});

/** Answers waiting for a marker (exam/marking): one question of one closed attempt, with its member and room. */
export const markingDecl = declareResource({
  rule: "exam/marking",
  title: msg`Marking`,
  fields: {
    attempt_id: { type: "int" },
    question_id: { type: "int" },
    status: enumField(MARK_STATUSES, msg`Status`),
    score: { type: "int", label: msg`Score` },
    comment: { type: "text", label: msg`Comment` },
    marked_at: { type: "bigint" },
    create_time: { ...STANDARD_FIELDS.create_time, label: msg`Queued` },
    stem: { type: "text", label: msg`Question` },
    user_id: { type: "int" },
    username: { type: "text", label: msg`Member` },
    room_id: { type: "int" },
    room_title: { type: "text", label: msg`Room` },
  },
  quickSearch: { fields: ["id", "username", "stem", "room_title", "comment"], label: msg`ID, member, question, room, comment` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "username", search: "text" },
    { field: "room_title", search: "text" },
    { field: "stem", search: "text" },
    { hook: "answer", label: msg`Answer` },
    { field: "status", render: "tag", search: "select" },
    { field: "score" },
    // How often and how long the member left the exam page during the attempt.
    { hook: "page_leaves", label: msg`Page leaves` },
    { field: "comment", hidden: true },
    ...standardColumns({ create_time: { sortable: true, search: true } }),
  ],
});

/** Answers that arrived after their attempt's deadline (exam/lateAnswer), waiting for a decision. */
export const lateAnswerDecl = declareResource({
  rule: "exam/lateAnswer",
  title: msg`Late answers`,
  fields: {
    attempt_id: { type: "int" },
    question_id: { type: "int" },
    status: enumField(LATE_STATUSES, msg`Status`),
    claimed_at: { type: "bigint", label: msg`Made at (device)` },
    received_at: { type: "bigint", label: msg`Received` },
    away_ms: { type: "bigint" },
    stem: { type: "text", label: msg`Question` },
    username: { type: "text", label: msg`Member` },
    room_title: { type: "text", label: msg`Room` },
  },
  quickSearch: { fields: ["id", "username", "stem", "room_title"], label: msg`ID, member, question, room` },
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "username", search: "text" },
    { field: "room_title" },
    { field: "stem" },
    { field: "status", render: "tag", search: "select" },
    { field: "claimed_at" },
    { field: "received_at" },
  ],
});

/** The question types (exam/questionType): the five kinds, each with its titles and default score; only edited. */
export const questionTypeDecl = declareResource({
  rule: "exam/questionType",
  title: msg`Question types`,
  fields: {
    type: enumField(QUESTION_TYPES, msg`Question type`),
    title: { type: "text", label: msg`Title` },
    title_en: { type: "text", label: msg`English title` },
    default_score: { type: "int", label: msg`Default score` },
  },
  quickSearch: { fields: ["id", "title", "title_en"] },
  columns: [{ field: "type", render: "tag" }, { field: "title" }, { field: "title_en" }, { field: "default_score", render: "number" }],
});

/** A question's status: a deleted question still in use is hidden (listed only when searched for by this status). */
export const QUESTION_STATUSES: readonly FieldOption[] = [...STATUS_OPTIONS, { value: "hidden", label: msg`Hidden (in use)` }];

/** Questions (exam/question): every kind, in its bank, ordered by weigh; its version counts its edits. */
export const questionDecl = declareResource({
  rule: "exam/question",
  title: msg({ message: "Questions", context: "exam screen" }),
  fields: {
    ...refFields("classify", "title", msg`Bank`),
    classify_title_en: { type: "text" },
    type: enumField(QUESTION_TYPES, msg`Question type`),
    stem: { type: "text", label: msg`Question` },
    difficulty: { type: "int", label: msg`Difficulty` },
    score: { type: "int", label: msg({ message: "Score", context: "question" }) },
    ...standardDecls("weigh"),
    status: enumField(QUESTION_STATUSES, msg`Status`),
    version: { type: "int", label: msg`Version` },
    hidden_at: { type: "time" },
    ...standardDecls("create_time", "update_time"),
  },
  quickSearch: { fields: ["id", "stem"], label: msg`ID, question` },
  sortable: true,
  columns: [
    ...standardColumns({ id: { sortable: true } }),
    { field: "stem", search: "text" },
    { field: "type", render: "tag", search: "select" },
    { field: "classify_id", search: "select", remote: { path: "exam/classify", labelField: "title" } },
    { field: "difficulty", render: "number", sortable: true, search: "number" },
    { field: "score", render: "number", sortable: true },
    { field: "status", render: "tag", search: "select" },
    { field: "version", render: "number", hidden: true },
    ...standardColumns({ weigh: { hidden: true }, update_time: { sortable: true, hidden: true } }),
  ],
});
