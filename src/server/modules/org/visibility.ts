/**
 * Who sees which courses, exam rooms and question banks: the ONE rule every member
 * endpoint applies, as SQL. A target is open to every member while nothing assigns it
 * (`org_access` has no row for it); once assigned, only to members of an assigned company (or a
 * company under it), holding an assigned duty, or sitting in an assigned enabled classroom.
 * Nobody logged in (member 0) sees only what is open to all. A paper is open when every bank it
 * draws from or takes a question from is.
 */

export type OrgTarget = "course" | "room" | "bank";

const COLUMN: Record<OrgTarget, string> = { course: "course_id", room: "room_id", bank: "bank_id" };

/**
 * SQL true when the `target` row whose id is `idSql` is open to the member whose id is `memberSql`
 * (both SQL expressions: a column such as `c.id`, or a placeholder such as `$1`).
 */
export function visibleSql(target: OrgTarget, idSql: string, memberSql: string): string {
  const col = COLUMN[target];
  return `(not exists (select 1 from org_access oa where oa.${col} = ${idSql})
    or exists (select 1 from org_access oa join member om on om.id = ${memberSql}
      where oa.${col} = ${idSql} and (
        oa.company_id in (select company_path(om.company_id))
        or oa.duty_id = om.duty_id
        or oa.classroom_id in (select cm.classroom_id from classroom_member cm join classroom cr on cr.id = cm.classroom_id
                               where cm.user_id = om.id and cr.status = 'enable'))))`;
}

/** SQL true when every bank paper `paperSql` uses (draw rows and fixed questions) is open to the member. */
export function paperVisibleSql(paperSql: string, memberSql: string): string {
  return `not exists (select 1 from exam_paper_row pr left join exam_question pq on pr.kind = 'fixed' and pq.id = pr.question_id
    where pr.paper_id = ${paperSql} and coalesce(pr.classify_id, pq.classify_id) is not null
      and not ${visibleSql("bank", "coalesce(pr.classify_id, pq.classify_id)", memberSql)})`;
}
