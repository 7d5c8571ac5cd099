import { sql, type Expression, type RawBuilder } from "kysely";

/**
 * Who sees which courses, exam rooms and question banks: the ONE rule every member
 * endpoint applies, as SQL. A target is open to every member while nothing assigns it
 * (`org_access` has no row for it); once assigned, only to members of an assigned company (or a
 * company under it), holding an assigned duty, or sitting in an assigned enabled classroom.
 * Nobody logged in (member 0) sees only what is open to all. A paper is open when every bank it
 * draws from or takes a question from is.
 *
 * The rules are Kysely `sql` pieces: the target's id is an expression of the statement (a column,
 * `sql.ref("c.id")`), the member a value (it travels as a parameter) or an expression. A prepared
 * statement's fixed text takes its placeholder as the member (`sql.raw("$2")`, see `sqlText`).
 */

export type OrgTarget = "course" | "room" | "bank";

const COLUMN: Record<OrgTarget, string> = { course: "oa.course_id", room: "oa.room_id", bank: "oa.bank_id" };

/** The member a rule is about: an id (sent as a parameter) or an SQL expression (a column, a placeholder). */
export type MemberSql = number | Expression<number>;

/** SQL true when the `target` row whose id is `id` is open to `member`. */
export function visibleTo(target: OrgTarget, id: Expression<number | null>, member: MemberSql): RawBuilder<boolean> {
  const col = sql.ref(COLUMN[target]);
  return sql<boolean>`(not exists (select 1 from org_access oa where ${col} = ${id})
    or exists (select 1 from org_access oa join member om on om.id = ${member}
      where ${col} = ${id} and (
        oa.company_id in (select company_path(om.company_id))
        or oa.duty_id = om.duty_id
        or oa.classroom_id in (select cm.classroom_id from classroom_member cm join classroom cr on cr.id = cm.classroom_id
                               where cm.user_id = om.id and cr.status = 'enable'))))`;
}

/** SQL true when every bank paper `paper` uses (draw rows and fixed questions) is open to `member`. */
export function paperVisibleTo(paper: Expression<number>, member: MemberSql): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from exam_paper_row pr left join exam_question pq on pr.kind = 'fixed' and pq.id = pr.question_id
    where pr.paper_id = ${paper} and coalesce(pr.classify_id, pq.classify_id) is not null
      and not ${visibleTo("bank", sql<number>`coalesce(pr.classify_id, pq.classify_id)`, member)})`;
}
