import {
  DEFAULT_RETENTION,
  clampRetention,
  compareLogs,
  estimateSeconds,
  graduated,
  isDue,
  replayCard,
  retrievability,
  MASTERY_WEEKS,
  type CardState,
  type ReviewGrade,
} from "../../../shared/exam/review.ts";
import type { ExamQuestion, GivenAnswer } from "../../../shared/exam/types.ts";
import type { Op, OpOf } from "../../../shared/sync/ops.ts";
import { addAnswer, addQuestion, emptyTopic, finishMastery, questionMastery, type LatestResult, type Mastery, type MasteryAcc } from "../../../shared/exam/mastery.ts";
import type { ReviewState } from "../../../shared/sync/wire.ts";
import { inWrongBook, type AnswerRow, type BankRow, type FavouriteRow, type MemberDb, type QuestionRow, type ReviewCardRow, type ReviewLogRow, type ReviewSettingRow, type WrongRow } from "../db.ts";
import { FEW_IDS, kindsOf, questionKinds, questionsWithIds, rowsWithKeys } from "./banks.ts";
import { applyLocally } from "./practice.ts";
import { clockOf, enqueue, gradeLocally, idOf, inSlices, storable, type RepoOptions } from "./shared.ts";

/**
 * Spaced review on the device: the queue (wrong book and favourites), each review
 * rated from its result and scheduled with ts-fsrs here (src/shared/exam/review.ts), logged and
 * queued as a `review.answer` op, and the server's logs merged back after a sync. A card is
 * always the replay of ALL its logs (the server's and this device's unsent ones), the same rule
 * the server applies, so both end in the same state whatever order the ops arrive in.
 */

/** The member's desired retention on this device (the default until set). */
export async function reviewRetention(db: MemberDb): Promise<number> {
  return (await db.reviewSettings.get("retention"))?.value ?? DEFAULT_RETENTION;
}

/** The member sets their desired retention (`review.retention`). */
export async function setReviewRetention(db: MemberDb, value: number, opts?: RepoOptions): Promise<void> {
  const retention = clampRetention(value);
  const op: OpOf<"review.retention"> = { id: idOf(opts)(), type: "review.retention", at: clockOf(opts)(), payload: { retention } };
  await db.transaction("rw", [db.reviewSettings, db.outbox], async () => {
    await db.reviewSettings.put({ key: "retention", value: retention, at: op.at, opId: op.id });
    await enqueue(db, op);
  });
}

export interface ReviewInput {
  bankId: number;
  question: ExamQuestion;
  /** What the member answered (recorded as a practice answer too); absent when they only recalled it. */
  answer?: GivenAnswer;
  /** The result: the device's grading, or the member's own verdict where the device cannot grade. */
  correct: boolean;
  /** The member's "hard" / "easy" for a right answer (null: Good). */
  grade?: ReviewGrade | null;
}

export interface ReviewOutcome {
  card: CardState;
  /** The question left the wrong book (answered right enough times in a row). */
  graduated: boolean;
}

/**
 * Records one review, in one transaction: the log row and its `review.answer` op, the card
 * replayed with ts-fsrs, the answer as a practice answer (a wrong one counts in the wrong book
 * again: the question comes back), and, once it was answered right GRADUATE_STREAK times in a
 * row since its latest wrong answer, its removal from the wrong book (`wrong.remove`).
 */
export async function recordReview(db: MemberDb, input: ReviewInput, opts?: RepoOptions): Promise<ReviewOutcome> {
  const { bankId, question, correct } = input;
  const at = clockOf(opts)();
  const newId = idOf(opts);
  return db.transaction("rw", [db.reviewLogs, db.reviewCards, db.reviewSettings, db.answers, db.wrong, db.outbox], async () => {
    const retention = await reviewRetention(db);
    const reviewOp: OpOf<"review.answer"> = {
      id: newId(),
      type: "review.answer",
      at,
      payload: { questionId: question.id, correct, grade: correct ? (input.grade ?? null) : null, retention },
    };
    const ops: { op: Op; correct?: boolean | null }[] = [];
    if (input.answer !== undefined) {
      const answer = storable(input.answer);
      const graded = gradeLocally(question, answer);
      const answerOp: OpOf<"practice.answer"> = { id: newId(), type: "practice.answer", at, payload: { questionId: question.id, answer, bankId, ...(question.version ? { version: question.version } : {}) } };
      await db.answers.add({ opId: answerOp.id, questionId: question.id, bankId, answer, correct: graded.correct, score: graded.score, at });
      await applyLocally(db, answerOp, graded);
      ops.push({ op: answerOp, correct: graded.correct });
    }
    ops.push({ op: reviewOp });
    const log: ReviewLogRow = { opId: reviewOp.id, questionId: question.id, at, correct, grade: reviewOp.payload.grade, retention };
    await db.reviewLogs.put(log);
    const card = replayCard(question.id, await db.reviewLogs.where("questionId").equals(question.id).toArray());
    await db.reviewCards.put(card);
    let left = false;
    const wrong = await db.wrong.get(question.id);
    if (correct && wrong && !wrong.removed && wrong.count > 0 && graduated(card, wrong.lastTime)) {
      const removeOp: OpOf<"wrong.remove"> = { id: newId(), type: "wrong.remove", at, payload: { questionId: question.id } };
      await applyLocally(db, removeOp);
      ops.push({ op: removeOp });
      left = true;
    }
    for (const { op, correct: graded } of ops) await enqueue(db, op, graded === undefined ? {} : { correct: graded });
    return { card, graduated: left };
  });
}

/** A queued op as a review log (a `review.answer` not on the server yet). */
function logOfOp(op: Op): ReviewLogRow | null {
  if (op.type !== "review.answer") return null;
  const { questionId, correct, grade, retention } = op.payload;
  return { opId: op.id, questionId, at: op.at, correct, grade, retention };
}

/**
 * Makes the device's review data the server's plus this device's unsent reviews: logs (a set by
 * op id), the cards replayed from them, and the desired retention (the later of the server's and
 * an unsent change). Writes only what differs. Returns how many rows changed.
 *
 * A log never changes under its op id, and a card is the replay of its question's logs, so only
 * the questions whose logs came or went are replayed (and any without a card): a pull that brings
 * nothing new (the usual one, after answers) reads the logs' and cards' keys and replays none,
 * where every card was replayed and compared after every sync (10,000 on a heavy device, in one
 * task). A change to the replay's rules (src/shared/exam/review.ts) therefore comes with a new
 * schema version whose upgrade deletes the cards (the next merge replays them). Many rows written
 * or deleted go in slices (`inSlices`), each its own task.
 */
export async function mergeReviewIntoDb(db: MemberDb, server: ReviewState, pendingOps: readonly Op[]): Promise<number> {
  return db.transaction("rw", [db.reviewLogs, db.reviewCards, db.reviewSettings], async () => {
    const logs = new Map<string, ReviewLogRow>();
    for (const log of server.logs) logs.set(log.opId, log);
    let setting: ReviewSettingRow = { key: "retention", value: server.retention, at: server.retentionAt, opId: "" };
    for (const op of pendingOps) {
      const log = logOfOp(op);
      if (log && !logs.has(log.opId)) logs.set(log.opId, log);
      if (op.type === "review.retention" && compareLogs({ at: op.at, opId: op.id }, setting) > 0) {
        setting = { key: "retention", value: op.payload.retention, at: op.at, opId: op.id };
      }
    }
    let changed = 0;
    // What the device holds, by key (one request each, no row read but the logs that go).
    const [logKeys, cardKeys] = await Promise.all([db.reviewLogs.toCollection().primaryKeys(), db.reviewCards.toCollection().primaryKeys()]);
    const known = new Set(logKeys);
    const goneLogs = logKeys.filter((opId) => !logs.has(opId));
    const goneQuestions = (await rowsWithKeys(db.reviewLogs, goneLogs, (row) => row.opId)).map((row) => row.questionId);
    const newLogs = [...logs.values()].filter((row) => !known.has(row.opId));
    await inSlices(goneLogs, (keys) => db.reviewLogs.bulkDelete(keys));
    await inSlices(newLogs, (rows) => db.reviewLogs.bulkPut(rows));
    changed += goneLogs.length + newLogs.length;

    const byQuestion = new Map<number, ReviewLogRow[]>();
    for (const log of logs.values()) {
      const list = byQuestion.get(log.questionId);
      if (list) list.push(log);
      else byQuestion.set(log.questionId, [log]);
    }
    // Replayed: the questions whose logs changed, and any without a card yet.
    const carded = new Set(cardKeys);
    const touched = new Set([...newLogs.map((row) => row.questionId), ...goneQuestions]);
    const replayed = [...byQuestion].filter(([questionId]) => touched.has(questionId) || !carded.has(questionId)).map(([questionId, list]) => replayCard(questionId, list));
    const stored = replayed.flatMap((card) => (carded.has(card.questionId) ? [card.questionId] : []));
    const oldCards = new Map((await rowsWithKeys(db.reviewCards, stored, (c) => c.questionId)).map((c) => [c.questionId, c]));
    const changedCards = replayed.filter((card) => JSON.stringify(oldCards.get(card.questionId)) !== JSON.stringify(card));
    const goneCards = cardKeys.filter((id) => !byQuestion.has(id));
    await inSlices(goneCards, (keys) => db.reviewCards.bulkDelete(keys));
    await inSlices(changedCards, (cards) => db.reviewCards.bulkPut(cards));
    changed += goneCards.length + changedCards.length;

    const current = await db.reviewSettings.get("retention");
    if (!current || current.value !== setting.value || current.at !== setting.at || current.opId !== setting.opId) {
      if (setting.at === 0 && !current) {
        // Never set anywhere: the default, nothing to store.
      } else {
        await db.reviewSettings.put(setting);
        changed += 1;
      }
    }
    return changed;
  });
}

/** One question of the review queue, with its question from a bank on this device. */
export interface ReviewEntry {
  questionId: number;
  question: QuestionRow;
  bank: BankRow;
  /** null: never reviewed (due at once). */
  card: ReviewCardRow | null;
  source: "wrong" | "favourite" | "both";
  /** FSRS retrievability now (null: never reviewed). */
  recall: number | null;
}

export interface ReviewQueue {
  /** Due now, on this device, most overdue first (never reviewed first). */
  due: ReviewEntry[];
  /** Questions in the queue (due or not), on this device or not. */
  queued: number;
  /** Due questions whose bank is not on this device (cannot be reviewed offline). */
  dueElsewhere: number;
  /** Rough time the due reviews take, seconds. */
  estimateSeconds: number;
  /** Every queued entry on this device (due or not). */
  entries: ReviewEntry[];
}

/**
 * The questions of the review queue: the wrong book (active: the `book` index's primary keys, one
 * request, no row read) and the favourites, and which each comes from.
 */
async function queueSources(db: MemberDb): Promise<Map<number, ReviewEntry["source"]>> {
  const [wrong, favourites] = await Promise.all([db.wrong.orderBy("book").primaryKeys(), db.favourites.toArray()]);
  return sourcesOf(wrong, favourites);
}

/** `queueSources` of the wrong book's question ids (or rows, those in the book counted) and favourite rows. */
function sourcesOf(wrong: readonly (number | WrongRow)[], favourites: readonly FavouriteRow[]): Map<number, ReviewEntry["source"]> {
  const sources = new Map<number, ReviewEntry["source"]>();
  for (const w of wrong) {
    if (typeof w === "number") sources.set(w, "wrong");
    else if (inWrongBook(w)) sources.set(w.questionId, "wrong");
  }
  for (const f of favourites) {
    if (f.on) sources.set(f.questionId, sources.has(f.questionId) ? "both" : "favourite");
  }
  return sources;
}

/** The review queue at `now`: the wrong book (active) and the favourites, with their cards. */
export async function readReviewQueue(db: MemberDb, now: number, bankId?: number): Promise<ReviewQueue> {
  return db.transaction("r", [db.favourites, db.wrong, db.reviewCards, db.questions, db.banks], async () => {
    const sources = await queueSources(db);
    if (sources.size === 0) return { due: [], queued: 0, dueElsewhere: 0, estimateSeconds: 0, entries: [] };
    const ids = [...sources.keys()];
    const rows = await questionsWithIds(db, ids, bankId);
    // One bank's queue needs the cards of that bank's questions only (those elsewhere are not counted).
    const carded = bankId === undefined ? ids : rows.map((row) => row.id);
    const cards = new Map((await rowsWithKeys(db.reviewCards, carded, (c) => c.questionId)).map((c) => [c.questionId, c]));
    const questions = new Map(rows.map((row) => [row.id, row]));
    const banks = new Map((await db.banks.bulkGet([...new Set(rows.map((r) => r.bankId))])).flatMap((b) => (b ? [[b.id, b] as const] : [])));
    const entries: ReviewEntry[] = [];
    let dueElsewhere = 0;
    for (const [questionId, source] of sources) {
      const card = cards.get(questionId) ?? null;
      const question = questions.get(questionId);
      const bank = question ? banks.get(question.bankId) : undefined;
      if (!question || !bank) {
        if (bankId === undefined && isDue(card ?? undefined, now)) dueElsewhere += 1;
        continue;
      }
      entries.push({ questionId, question, bank, card, source, recall: card ? retrievability(card, now) : null });
    }
    const due = entries
      .filter((e) => isDue(e.card ?? undefined, now))
      .sort((a, b) => (a.card?.due ?? 0) - (b.card?.due ?? 0) || a.questionId - b.questionId);
    return {
      due,
      queued: bankId === undefined ? sources.size : entries.length,
      dueElsewhere,
      estimateSeconds: estimateSeconds(due.map((e) => e.question.type)),
      entries,
    };
  });
}

/** Where a queued question is reviewed on this device: its bank and type. */
type Kinds = Map<number, { bankId: number; type: string }>;

/**
 * The queue's questions (`queueSources`) and where each is on this device: every bank's queue
 * (each question in the lowest bank holding it), or one bank's (the questions of its directory
 * that are queued, read by key when the bank is small).
 */
async function queueOf(db: MemberDb, bankId: number | undefined): Promise<{ sources: Map<number, ReviewEntry["source"]>; kinds: Kinds }> {
  if (bankId === undefined) {
    const [sources, kinds] = await Promise.all([queueSources(db), questionKinds(db)]);
    return { sources, kinds };
  }
  const bank = await db.banks.get(bankId);
  const kinds: Kinds = new Map();
  if (!bank) return { sources: new Map(), kinds };
  bank.questionIds.forEach((id, i) => kinds.set(id, { bankId, type: bank.questionTypes[i] ?? "" }));
  const [wrong, favourites] = await Promise.all([
    rowsWithKeys(db.wrong, bank.questionIds, (w) => w.questionId),
    rowsWithKeys(db.favourites, bank.questionIds, (f) => f.questionId),
  ]);
  return { sources: sourcesOf(wrong, favourites), kinds };
}

/** The review list's first screen: the queue's figures and its first due questions. */
export interface ReviewList extends ReviewSummary {
  /** The first due questions on this device (at most `shown`), most overdue first (never reviewed first). */
  first: ReviewEntry[];
}

/**
 * What the review screen shows first, for every bank or one (the figures and the first `shown`
 * entries of `readReviewQueue`'s `due`), reading only those entries' questions and cards: the
 * rest is counted from the banks' directories and the cards' `due` index (keys, no row), so a
 * queue of thousands draws at once. The whole due list (`readReviewQueue`) is read when a review
 * starts.
 */
export async function readReviewList(db: MemberDb, now: number, bankId?: number, shown = 5): Promise<ReviewList> {
  return db.transaction("r", [db.favourites, db.wrong, db.reviewCards, db.questions, db.banks], async () => {
    const [{ sources, kinds }, later, dueOrder] = await Promise.all([queueOf(db, bankId), dueLater(db, now), shown > 0 ? dueInOrder(db, now) : []]);
    const due: { questionId: number; bankId: number; type: string }[] = [];
    // Due in a bank not on this device (one bank's queue holds its own questions only).
    let dueElsewhere = 0;
    for (const questionId of sources.keys()) {
      if (later.has(questionId)) continue;
      const kind = kinds.get(questionId);
      if (kind) due.push({ questionId, ...kind });
      else dueElsewhere += 1;
    }
    // Most overdue first: never reviewed (no card), by id, then the cards due by now in the `due`
    // index's order (by due time, then question id).
    const dueHere = new Map(due.map((e) => [e.questionId, e]));
    const carded = new Set(dueOrder);
    const picked = [
      ...due.filter((e) => !carded.has(e.questionId)).sort((a, b) => a.questionId - b.questionId),
      ...dueOrder.flatMap((id) => dueHere.get(id) ?? []),
    ].slice(0, shown);
    const [rows, cards, bankRows] = await Promise.all([
      db.questions.bulkGet(picked.map((e): [number, number] => [e.bankId, e.questionId])),
      db.reviewCards.bulkGet(picked.map((e) => e.questionId)),
      db.banks.bulkGet([...new Set(picked.map((e) => e.bankId))]),
    ]);
    const bankOf = new Map(bankRows.flatMap((b) => (b ? [[b.id, b] as const] : [])));
    const first = picked.flatMap((e, i) => {
      const question = rows[i];
      const bank = bankOf.get(e.bankId);
      const card = cards[i] ?? null;
      return question && bank ? [{ questionId: e.questionId, question, bank, card, source: sources.get(e.questionId)!, recall: card ? retrievability(card, now) : null }] : [];
    });
    return {
      due: due.length,
      queued: sources.size,
      dueElsewhere,
      estimateSeconds: estimateSeconds(due.map((e) => e.type)),
      first,
    };
  });
}

/** The review queue's figures, without its questions (the member home's daily review card). */
export type ReviewSummary = Pick<ReviewQueue, "queued" | "dueElsewhere" | "estimateSeconds"> & {
  /** Due now on this device (`ReviewQueue.due.length`). */
  due: number;
};

/** The figures of `readReviewQueue(db, now)` (every bank) without reading a question (`readReviewList`). */
export async function reviewSummary(db: MemberDb, now: number): Promise<ReviewSummary> {
  const { due, queued, dueElsewhere, estimateSeconds: seconds } = await readReviewList(db, now, undefined, 0);
  return { due, queued, dueElsewhere, estimateSeconds: seconds };
}

/**
 * How many reviews are due at `now` (on this device or not): the badge, in the header of every
 * page. The queue's questions are not read: a question is due unless its card is reviewed and
 * due later, and those cards are found by the `due` index.
 */
export async function dueReviewCount(db: MemberDb, now: number): Promise<number> {
  // Each table in one request (toArray), not a cursor's request per row; the cards by key only.
  return db.transaction("r", [db.favourites, db.wrong, db.reviewCards], async () => {
    const [queued, later] = await Promise.all([queueSources(db), dueLater(db, now)]);
    let notDue = 0;
    for (const questionId of later) if (queued.has(questionId)) notDue += 1;
    return queued.size - notDue;
  });
}

/**
 * The questions whose cards are due after `now`, from the `due` index's keys (no card read): a
 * stored card is the replay of at least one review, so it is due (`isDue`) exactly when it is not
 * due later.
 */
async function dueLater(db: MemberDb, now: number): Promise<Set<number>> {
  return new Set(await db.reviewCards.where("due").above(now).primaryKeys());
}

/** The questions whose cards are due by `now`, most overdue first (the `due` index's primary keys, in its order: one request, no card read). */
function dueInOrder(db: MemberDb, now: number): Promise<number[]> {
  return db.reviewCards.where("due").belowOrEqual(now).primaryKeys();
}

/**
 * The questions of one topic (a bank's questions of one type) most likely to be forgotten: by
 * mastery (src/shared/exam/mastery.ts), lowest first (a question without a graded result in the
 * middle), at most `limit`.
 */
export async function weakestQuestions(db: MemberDb, bankId: number, type: string, now: number, limit = 10): Promise<{ question: QuestionRow; bank: BankRow; card: ReviewCardRow | null; recall: number }[]> {
  return db.transaction("r", [db.questions, db.banks, db.reviewCards, db.answers], async () => {
    const bank = await db.banks.get(bankId);
    if (!bank) return [];
    const questions = (await db.questions.where("bankId").equals(bankId).toArray()).filter((q) => q.type === type);
    const cards = new Map((await db.reviewCards.bulkGet(questions.map((q) => q.id))).flatMap((c) => (c ? [[c.questionId, c] as const] : [])));
    const answers = await db.answers.where("bankId").equals(bankId).toArray();
    const latest = latestGraded(answers);
    return questions
      .map((question) => {
        const card = cards.get(question.id);
        // A question without a graded result (never answered, or waiting for a teacher) sits in the middle.
        const recall = questionMastery(latest.get(question.id) ?? null, card ?? null, now) ?? 0.5;
        return { question, bank, card: card ?? null, recall };
      })
      .sort((a, b) => a.recall - b.recall || a.question.position - b.question.position)
      .slice(0, limit);
  });
}

/** The answers to these questions: by the question index when they are few, else the table kept where wanted. */
async function answersTo(db: MemberDb, ids: readonly number[]): Promise<AnswerRow[]> {
  if (ids.length === 0) return [];
  if (ids.length < FEW_IDS) return db.answers.where("questionId").anyOf([...ids]).toArray();
  const wanted = new Set(ids);
  return (await db.answers.toArray()).filter((a) => wanted.has(a.questionId));
}

/** Each question's latest graded answer (an answer waiting for a teacher says nothing). */
function latestGraded(answers: readonly { questionId: number; at: number; correct: boolean | null }[]): Map<number, LatestResult> {
  const latest = new Map<number, LatestResult>();
  for (const a of answers) {
    if (a.correct === null) continue;
    if ((latest.get(a.questionId)?.at ?? -1) <= a.at) latest.set(a.questionId, { correct: a.correct, at: a.at });
  }
  return latest;
}

/**
 * Mastery by topic (bank) and question type from this device alone, for when the server cannot
 * be reached: the same rules as `GET /api/exam/review/mastery` (src/shared/exam/mastery.ts), over the answers and reviews this
 * device holds, for the banks saved on it (or one bank's topics: `bankId`, whose screen shows only
 * those, reading only its questions' answers, cards and marks). Each question's bank and type come
 * from the banks' directories (`questionKinds`), not from the questions.
 */
export async function deviceMastery(db: MemberDb, now: number, bankId?: number): Promise<Mastery> {
  return db.transaction("r", [db.banks, db.reviewCards, db.answers, db.wrong, db.favourites], async () => {
    // One bank's topics need that bank and those below it (a question's topic is the lowest bank holding it).
    const bankRows = await (bankId === undefined ? db.banks.toArray() : db.banks.where("id").belowOrEqual(bankId).toArray());
    const kinds = kindsOf(bankRows);
    // One bank's topics: the questions whose topic is that bank's.
    const scope = bankId === undefined ? null : (bankRows.find((b) => b.id === bankId)?.questionIds ?? []).filter((id) => kinds.get(id)?.bankId === bankId);
    const [answers, cardRows, queued] = await Promise.all([
      scope ? answersTo(db, scope) : db.answers.toArray(),
      // The questions reviewed are those with a card (a card is the replay of a question's logs: it exists while they do).
      scope ? rowsWithKeys(db.reviewCards, scope, (c) => c.questionId) : db.reviewCards.toArray(),
      scope
        ? Promise.all([rowsWithKeys(db.wrong, scope, (w) => w.questionId), rowsWithKeys(db.favourites, scope, (f) => f.questionId)]).then(([wrong, favourites]) => sourcesOf(wrong, favourites))
        : queueSources(db),
    ]);
    const touched = [...new Set([...answers.map((a) => a.questionId), ...cardRows.map((c) => c.questionId)])];
    const banks = new Map(bankRows.map((b) => [b.id, b]));
    const cards = new Map(cardRows.map((c) => [c.questionId, c]));
    const latest = latestGraded(answers);

    const topics = new Map<string, MasteryAcc>();
    const topicOf = (bankId: number, type: string): MasteryAcc | null => {
      const bank = banks.get(bankId);
      if (!bank) return null;
      const key = `${bankId}:${type}`;
      let topic = topics.get(key);
      if (!topic) {
        topic = emptyTopic(bankId, bank.title, type);
        topics.set(key, topic);
      }
      return topic;
    };
    for (const questionId of touched) {
      const kind = kinds.get(questionId);
      const topic = kind ? topicOf(kind.bankId, kind.type) : null;
      if (!kind || !topic) continue;
      addQuestion(topic, latest.get(questionId) ?? null, cards.get(questionId) ?? null, now);
    }
    const since = now - MASTERY_WEEKS * 7 * 86_400_000;
    for (const a of answers) {
      const kind = kinds.get(a.questionId);
      const topic = kind ? topics.get(`${kind.bankId}:${kind.type}`) : undefined;
      if (topic) addAnswer(topic, a.correct, a.at, since);
    }
    // The queue's reviews due now on this device, by topic (as the review list counts them).
    for (const questionId of queued.keys()) {
      const kind = kinds.get(questionId);
      const topic = kind && banks.has(kind.bankId) ? topics.get(`${kind.bankId}:${kind.type}`) : undefined;
      if (topic && isDue(cards.get(questionId), now)) topic.dueReviews += 1;
    }
    return {
      topics: finishMastery(topics.values()),
    };
  });
}
