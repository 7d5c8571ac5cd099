import { afterEach, describe, expect, it } from "vitest";
import { liveQuery, type DBCoreMutateRequest, type Subscription } from "dexie";
import { applyOp, emptyState, toExamState, type ExamStateModel } from "../../src/shared/exam/state.ts";
import type { ExamState } from "../../src/shared/sync/exam.ts";
import type { Op } from "../../src/shared/sync/ops.ts";
import type { SyncResult } from "../../src/shared/sync/protocol.ts";
import { deleteMemberDb, openMemberDb, type MemberDb } from "../../src/client/offline/db.ts";
import { localState, removeWrong, setFavourite, setProgress } from "../../src/client/offline/repository/index.ts";
import { createSyncEngine, mergeIntoDb, type SyncEngine } from "../../src/client/offline/sync.ts";

/**
 * A sync round trip rewrites the device's favourites, wrong book and progress only where the
 * server's state (with the ops still pending) differs from them: when nothing changed, nothing is
 * written and no live query on those tables wakes.
 */

const T0 = Date.UTC(2024, 0, 1);
const TABLES = ["favourites", "wrong", "progress"] as const;
let nextMemberId = 50_000;
const opened: MemberDb[] = [];
const engines: SyncEngine[] = [];
const subscriptions: Subscription[] = [];

afterEach(async () => {
  for (const s of subscriptions.splice(0)) s.unsubscribe();
  for (const engine of engines.splice(0)) engine.stop();
  for (const db of opened.splice(0)) {
    db.close();
    await deleteMemberDb(db.memberId);
  }
});

/** A member database whose writes (put, add, delete) are counted per table. */
function countedDb(): { db: MemberDb; writes: Record<string, number> } {
  const db = openMemberDb(++nextMemberId);
  opened.push(db);
  const writes: Record<string, number> = {};
  db.use({
    stack: "dbcore",
    name: "count-writes",
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name);
        return {
          ...table,
          mutate(req: DBCoreMutateRequest) {
            writes[name] = (writes[name] ?? 0) + 1;
            return table.mutate(req);
          },
        };
      },
    }),
  });
  return { db, writes };
}

/** Counts the answers of a live query on each of the three tables (the first answer included). */
async function watchTables(db: MemberDb): Promise<Record<(typeof TABLES)[number], number>> {
  const wakes = { favourites: 0, wrong: 0, progress: 0 };
  for (const name of TABLES) {
    await new Promise<void>((resolve, reject) => {
      subscriptions.push(
        liveQuery((): Promise<unknown[]> => db.table(name).toArray()).subscribe({
          next: () => {
            wakes[name] += 1;
            resolve();
          },
          error: reject,
        }),
      );
    });
  }
  return wakes;
}

/** Lets Dexie's change notifications (and the live queries they wake) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const tableWrites = (writes: Record<string, number>) => TABLES.reduce((n, name) => n + (writes[name] ?? 0), 0);

/** The server: each op applied once with the shared rules (what the SQL does, tests/server/sync-rules.test.ts). */
function fakeServer() {
  let model: ExamStateModel = emptyState();
  const seen = new Set<string>();
  let pulls = 0;
  return {
    send: async (ops: Op[]): Promise<SyncResult[]> =>
      ops.map((op) => {
        if (seen.has(op.id)) return { id: op.id, status: "duplicate" };
        seen.add(op.id);
        model = applyOp(model, op);
        return { id: op.id, status: "applied" };
      }),
    pull: async (): Promise<ExamState> => {
      pulls += 1;
      return toExamState(model);
    },
    pulls: () => pulls,
  };
}

function engineFor(db: MemberDb, server: ReturnType<typeof fakeServer>): SyncEngine {
  const engine = createSyncEngine({
    db,
    send: server.send,
    pull: server.pull,
    now: () => T0 + 10_000_000,
    random: () => 0.5,
    setTimer: () => null,
    clearTimer: () => undefined,
    online: () => true,
    window: new EventTarget(),
    document: Object.assign(new EventTarget(), { visibilityState: "visible" as DocumentVisibilityState }) as unknown as Document,
  });
  engines.push(engine);
  return engine;
}

describe("merging the pulled state", () => {
  it("writes nothing and wakes no live query when the state is what the device holds", async () => {
    const { db, writes } = countedDb();
    const server: ExamState = {
      favourites: [1, 2],
      wrong: [{ questionId: 3, count: 2, lastTime: T0 }],
      progress: [{ bankId: 7, position: 4, updatedAt: T0 }],
    };
    expect(await mergeIntoDb(db, server)).toBe(4);
    expect(tableWrites(writes)).toBeGreaterThan(0);
    const wakes = await watchTables(db);
    for (const name of TABLES) writes[name] = 0;

    expect(await mergeIntoDb(db, structuredClone(server))).toBe(0);
    await settle();
    expect(tableWrites(writes)).toBe(0);
    expect(wakes).toEqual({ favourites: 1, wrong: 1, progress: 1 });
    expect(await localState(db)).toEqual(server);
  });

  it("writes only the rows that changed, deletes the ones that left, and wakes only their tables", async () => {
    const { db, writes } = countedDb();
    await mergeIntoDb(db, {
      favourites: [1, 2],
      wrong: [{ questionId: 3, count: 2, lastTime: T0 }],
      progress: [{ bankId: 7, position: 4, updatedAt: T0 }, { bankId: 8, position: 1, updatedAt: T0 }],
    });
    const wakes = await watchTables(db);
    for (const name of TABLES) writes[name] = 0;
    const next: ExamState = {
      favourites: [1], // 2 left (turned off on another device)
      wrong: [{ questionId: 3, count: 2, lastTime: T0 }],
      progress: [{ bankId: 7, position: 5, updatedAt: T0 + 1 }, { bankId: 8, position: 1, updatedAt: T0 }],
    };
    expect(await mergeIntoDb(db, next)).toBe(2);
    await settle();
    expect(writes.wrong ?? 0).toBe(0);
    expect(writes.favourites).toBe(1); // one bulkDelete
    expect(writes.progress).toBe(1); // one bulkPut of the one changed row
    expect(wakes.wrong).toBe(1);
    expect(wakes.favourites).toBeGreaterThan(1);
    expect(wakes.progress).toBeGreaterThan(1);
    expect(await localState(db)).toEqual(next);
  });

  it("keeps the device's pending changes on top of the server's state, as before", async () => {
    const { db } = countedDb();
    await setFavourite(db, 5, true, { now: () => T0 + 5 });
    await removeWrong(db, 3, { now: () => T0 + 6 });
    await mergeIntoDb(db, { favourites: [1], wrong: [{ questionId: 3, count: 1, lastTime: T0 }], progress: [] });
    expect(await localState(db)).toEqual({ favourites: [1, 5], wrong: [], progress: [] });
  });
});

describe("a sync round trip", () => {
  it("rewrites the tables once after a change and not at all on the next round trip with nothing new", async () => {
    const { db, writes } = countedDb();
    const server = fakeServer();
    const engine = engineFor(db, server);
    await setFavourite(db, 11, true, { now: () => T0 + 1 });
    await setProgress(db, 7, 3, { now: () => T0 + 2 });
    await engine.sync();
    expect(server.pulls()).toBe(1);
    // The pulled favourite has no time nor op id on the device: the one row is rewritten once.
    expect(await localState(db)).toEqual({ favourites: [11], wrong: [], progress: [{ bankId: 7, position: 3, updatedAt: T0 + 2 }] });

    const wakes = await watchTables(db);
    for (const name of Object.keys(writes)) writes[name] = 0;
    await engine.sync();
    await engine.sync();
    await settle();
    expect(server.pulls()).toBe(3);
    expect(tableWrites(writes)).toBe(0);
    expect(wakes).toEqual({ favourites: 1, wrong: 1, progress: 1 });
  });
});
