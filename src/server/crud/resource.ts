import type { MessageDescriptor } from "@lingui/core";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Kysely } from "kysely";
import type { z } from "zod";
import type { SearchOperator } from "../../shared/admin/crud.ts";
import type { Queryable } from "../db/index.ts";
import type { AdminRow } from "../plugins/auth.ts";

/**
 * A back-office resource: what the CRUD engine (routes.ts) needs to answer the generic protocol
 * of API.md at `/admin/<rule>/<action>`. A new screen's server side is one of these (see
 * resources/), not a copied set of routes.
 */

/** Types a searchable field may have: how a search value is read and which operators fit. */
export type FieldType = "int" | "bigint" | "time" | "text" | "bool" | "enum" | "date";

export interface FieldDef {
  /** The SQL column, qualified by its table's alias: `t.username` (the resource's table is `t`) or a join's `g.name`. */
  column: string;
  type: FieldType;
  /** The values of an `enum` field. */
  values?: readonly string[];
  /** Narrows the operators allowed on this field (default: all that fit its type). */
  operators?: readonly SearchOperator[];
}

export type Action = "index" | "edit" | "add" | "del" | "sortable";

/** A `left join <table> <alias> on <on[0]> = <on[1]>` for list columns of another table. */
export interface Join {
  table: string;
  alias: string;
  on: readonly [string, string];
}

export type Row = Record<string, unknown>;
/** Kysely over tables the engine knows only by name (definitions are checked at start). */
export type AnyTables = Record<string, Record<string, unknown>>;

export interface CrudContext {
  /** The request's transaction (writes) or the database (reads). */
  tx: Queryable;
  k: Kysely<AnyTables>;
  admin: AdminRow;
  req: FastifyRequest;
}

export interface ResourceHooks {
  /** The table columns to write for a valid add (`existing` null) or edit body; throw ApiError to refuse. Default: the body without `id`. */
  beforeWrite?(ctx: CrudContext, body: Row, existing: Row | null): Promise<Row>;
  /** After the row is written, in the same transaction (e.g. group memberships). */
  afterWrite?(ctx: CrudContext, id: number, body: Row, existing: Row | null): Promise<void>;
  /**
   * Before rows are deleted (they are locked); throw ApiError to refuse them all. May answer rows
   * of other tables the delete removes with them (a cascade), handed to `afterDelete`.
   */
  beforeDelete?(ctx: CrudContext, rows: Row[]): Promise<void | Row[]>;
  /**
   * Rows of a delete that are kept instead (e.g. a question in use is hidden, not deleted): the
   * hook changes them as it must and answers their ids; the engine deletes (and recycles) only
   * the others. Runs after `beforeDelete`, in the same transaction.
   */
  keepOnDelete?(ctx: CrudContext, rows: Row[]): Promise<number[]>;
  /**
   * After a delete has committed (e.g. removing files nothing uses any more), with the rows
   * `beforeDelete` answered; failures are the hook's to log.
   */
  afterDelete?(app: FastifyInstance, rows: Row[], cascaded: Row[]): Promise<void>;
  /** After an add has committed, with the new row's id and the body (e.g. emailing an invitation); failures are the hook's to log. */
  afterAdd?(app: FastifyInstance, req: FastifyRequest, id: number, body: Row): Promise<void>;
  /** After an edit has committed, with the row as it was before (e.g. removing a replaced file); failures are the hook's to log. */
  afterEdit?(app: FastifyInstance, before: Row): Promise<void>;
  /** After two rows swapped places (`sortable`), in the same transaction (e.g. a content version that follows the order). */
  afterSort?(ctx: CrudContext, rows: Row[]): Promise<void>;
  /** Completes the row of `GET edit` (e.g. its group ids). */
  editRow?(ctx: CrudContext, row: Row): Promise<Row>;
  /** Completes the rows of a list page. */
  listRows?(ctx: CrudContext, rows: Row[]): Promise<Row[]>;
}

/**
 * An action beyond the protocol's five, mounted at `/admin/<rule>/<name>` and needing the rule
 * `<rule>/<name>` (or `rule`): a POST runs in a write transaction with its admin log row (e.g.
 * the recycle bin's `restore {ids}`); a GET only reads (e.g. the choices of a form field).
 */
export interface ExtraAction {
  method: "GET" | "POST";
  /** The POST body's or the GET query's zod schema. */
  input: z.ZodType;
  /** Another rule than `<rule>/<name>` (e.g. a GET the list's readers may call: `<rule>/index`). */
  rule?: string;
  /**
   * The resource's rows the input names, which a company admin must reach (scope.ts): by default
   * its `id` and `ids`. An action whose `id` names another table's row (e.g. one face check of an
   * attempt) answers the rows of the resource it belongs to, so the row served is what is scoped.
   */
  rows?(ctx: CrudContext, input: unknown): Promise<number[]>;
  /** A POST body's own size limit in bytes (e.g. a file sent as base64), instead of the server's. */
  bodyLimit?: number;
  /** The success message of a POST. */
  done?: MessageDescriptor;
  /**
   * A POST's slow, read-only part (e.g. reading an uploaded file), run before its transaction
   * opens, after the same access checks: an open transaction holds the embedded database, so
   * other requests (even `/api/health`) would wait for it. Its result is `run`'s third argument.
   */
  prepare?(ctx: CrudContext, input: unknown): Promise<unknown>;
  run(ctx: CrudContext, input: unknown, prepared?: unknown): Promise<unknown>;
  /**
   * A POST's work once its transaction has committed (e.g. emails, which a rollback would not
   * take back), given what `run` answered; answers what the client gets instead (e.g. without
   * the secrets the emails carry).
   */
  committed?(app: FastifyInstance, req: FastifyRequest, result: unknown): Promise<unknown>;
  /** A GET that answers with its own reply instead of the envelope (a file download); `run` is then unused. */
  send?(ctx: CrudContext, input: unknown, reply: FastifyReply): Promise<unknown>;
}

export interface ResourceDef {
  /** The rule path: routes at `/admin/<rule>/<action>`, each needing the rule `<rule>/<action>`. */
  rule: string;
  /** Shown in the admin log. */
  title: MessageDescriptor;
  table: string;
  /** Fields of the list rows; search, order and quick search may use only these. Must include `id`. */
  fields: Record<string, FieldDef>;
  joins?: readonly Join[];
  /** Fields the quick search looks in (case-insensitive, OR). */
  quickSearch: readonly string[];
  /** Default `["id", "desc"]`. */
  defaultOrder?: readonly [string, "asc" | "desc"];
  /** Fields a remote select (`select=1`) gets (default: all list fields). */
  selectFields?: readonly string[];
  /**
   * A tree by `pid` (a parent must exist and may not be the row or one of its descendants; a row
   * with rows under it that are not deleted with it is not deleted).
   */
  tree?: boolean;
  /** A tree's refusal to delete a row that still has rows under it (default: a generic one). */
  childrenRefusal?: MessageDescriptor;
  /** Rows carry `weigh`: `POST sortable` swaps it. */
  sortable?: boolean;
  /** Columns of the table `GET edit` answers with (never a secret). */
  editColumns: readonly string[];
  /** Zod schemas of the add / edit bodies (src/shared/admin); absent: no such route. */
  add?: z.ZodType;
  edit?: z.ZodType;
  /** Rows may be deleted. */
  del?: boolean;
  /** The table has `update_time` (set on edit). */
  touch?: boolean;
  /** A rule other than `<rule>/<action>` for an action (e.g. a read-only log's detail needs `index`). */
  rules?: Partial<Record<Action, string>>;
  hooks?: ResourceHooks;
  /**
   * Company-scoped admins (`admin.is_company`, SPEC §3): `{column}` the SQL expression (over `t`
   * and the joins) of a row's company: such an admin reads and writes only rows of their company
   * or a company under it, and `fill` is the table column an add sets to the admin's company
   * when the body leaves it empty. `"read"`: content shared by every company, which they may
   * read but not change. Absent: the resource is closed to them. Applied by the engine
   * (crud/scope.ts) to every action.
   */
  company?: { column: string; fill?: string } | "read";
  /**
   * Conditions of the list (`GET index`) unless its search names their field, e.g. hidden rows
   * left out until the admin searches by status. A remote select's preloaded value is not held by them.
   */
  defaultSearch?: readonly { field: string; operator: SearchOperator; val: string }[];
  /**
   * A table the database keeps with how many of the resource's rows there are per value of some of
   * its columns (`columns`, named alike in both tables; `n` the figure; triggers in the writes'
   * transactions keep it exact: migration 0060). It answers the list's total (a sum of a few rows,
   * not a count of every row) when every condition of the list (search, default search, company
   * scope) is on those columns and there is no quick search. Its joins must be by id (one row at
   * most each: they never change how many rows there are).
   */
  counted?: { table: string; columns: readonly string[] };
  /** Actions beyond index / edit / add / del / sortable, by name. */
  actions?: Record<string, ExtraAction>;
}

export const ruleOf = (def: ResourceDef, action: Action): string => def.rules?.[action] ?? `${def.rule}/${action}`;
