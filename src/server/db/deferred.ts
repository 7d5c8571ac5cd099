import type { Database } from "./database.ts";

const settled = (): void => undefined;

/**
 * The database of a server that is still starting (app.ts: main.ts began opening it, and the
 * server registers its routes and listens meanwhile). Its calls wait for `opening` and then for
 * `usable` (the migrations run), so nothing reads or writes a schema that is not yet current;
 * once both have resolved, the database's own methods take their place and a query costs
 * nothing more than on the database itself. `close` waits for both to settle (a migration is
 * never cut short) and closes whatever was opened.
 */
export function deferredDatabase(opening: Promise<Database>, usable: Promise<unknown>, kind: Database["kind"]): Database {
  const ready = usable.then(() => opening);
  const deferred: Database = {
    kind,
    query: (sql, params) => ready.then((db) => db.query(sql, params)),
    exec: (sql) => ready.then((db) => db.exec(sql)),
    transaction: (fn) => ready.then((db) => db.transaction(fn)),
    close: () =>
      usable
        .then(settled, settled)
        .then(() => opening)
        .then((db) => db.close(), settled),
  };
  ready.then(
    (db) => Object.assign(deferred, { query: db.query, exec: db.exec, transaction: db.transaction }),
    settled,
  );
  return deferred;
}
