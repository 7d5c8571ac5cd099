import { msg } from "@lingui/core/macro";
import { formatPrice, type Enrolment } from "../../../shared/course/types.ts";
import type { Queryable, Database } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { memos } from "../account/memos.ts";
import { COURSE_VISIBLE, enrolment, findEnrolment } from "./queries.ts";

/**
 * Enrolling in a course: free courses by `enrol`, paid ones by `buy` from the member's balance
 * (member row locked, a balance-log row in the same transaction). Enrolled twice is charged once.
 */

export const courseGone = () => new ApiError(msg`This course does not exist or is no longer available`);

export interface EnrolOutcome {
  enrolment: Enrolment;
  /** False when the member was enrolled already. */
  created: boolean;
}

export async function enrol(db: Queryable, memberId: number, courseId: number): Promise<EnrolOutcome> {
  const course = await db.query<{ id: number; price: number }>(`select c.id, c.price from course c where c.id = $2 and c.status = 'enable' and ${COURSE_VISIBLE}`, [memberId, courseId]);
  if (!course.rows[0]) throw courseGone();
  const existing = await findEnrolment(db, memberId, courseId);
  if (existing) return { enrolment: existing, created: false };
  if (Number(course.rows[0].price) > 0) throw new ApiError(msg`This is a paid course: please buy it to enrol`);
  await db.query("insert into course_enrolment (user_id, course_id, paid) values ($1, $2, 0) on conflict (user_id, course_id) do nothing", [
    memberId,
    courseId,
  ]);
  return { enrolment: (await findEnrolment(db, memberId, courseId))!, created: true };
}

export interface BuyOutcome {
  enrolment: Enrolment;
  /** The balance after (cents). */
  money: number;
  /** False when the member was enrolled already (nothing charged). */
  charged: boolean;
}

/** Buys a paid course at `price` (cents, the price the member was shown). */
export async function buy(db: Database, memberId: number, courseId: number, price: number): Promise<BuyOutcome> {
  return db.transaction(async (tx) => {
    // The member row is locked first: two purchases of one member never interleave.
    const locked = await tx.query<{ money: number }>("select money from member where id = $1 for update", [memberId]);
    const balance = Number(locked.rows[0]!.money);
    const course = await tx.query<{ id: number; title: string; price: number }>(
      `select c.id, c.title, c.price from course c where c.id = $2 and c.status = 'enable' and ${COURSE_VISIBLE} for share of c`,
      [memberId, courseId],
    );
    const row = course.rows[0];
    if (!row) throw courseGone();
    const existing = await findEnrolment(tx, memberId, row.id);
    if (existing) return { enrolment: existing, money: balance, charged: false };
    const current = Number(row.price);
    if (current === 0) throw new ApiError(msg`This course is free: enrol in it instead of buying it`);
    if (price !== current) {
      const price = formatPrice(current);
      throw new ApiError(msg`The price of this course has changed to ${price} yuan: please check it and try again`, 0, { price: current });
    }
    if (balance < current) {
      const price = formatPrice(current);
      const money = formatPrice(balance);
      throw new ApiError(msg`Your balance is not enough: this course costs ${price} yuan and your balance is ${money} yuan`, 0, {
        price: current,
        money: balance,
      });
    }
    const after = balance - current;
    const title = row.title;
    await tx.query("update member set money = $1, update_time = extract(epoch from now())::bigint where id = $2", [after, memberId]);
    // The memo is a key with parameters, shown in the reader's language (account/memos.ts).
    const memo = memos.courseBought(title);
    await tx.query("insert into user_money_log (user_id, money, before, after, memo_key, memo_params) values ($1, $2, $3, $4, $5, $6)", [
      memberId,
      -current,
      balance,
      after,
      memo.key,
      JSON.stringify(memo.params),
    ]);
    const inserted = await tx.query<{ course_id: number; create_time: number; paid: number }>(
      "insert into course_enrolment (user_id, course_id, paid) values ($1, $2, $3) returning course_id, create_time, paid",
      [memberId, row.id, current],
    );
    return { enrolment: enrolment(inserted.rows[0]!), money: after, charged: true };
  });
}
