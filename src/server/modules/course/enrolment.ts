import { msg } from "@lingui/core/macro";
import { formatPrice, type Enrolment } from "../../../shared/course/types.ts";
import type { Queryable, Database } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { memos } from "../account/memos.ts";
import { enrolment, findEnrolment } from "./queries.ts";
import {
  enrollableCourse,
  insertFreeEnrolment,
  insertMoneyLog,
  insertPaidEnrolment,
  lockMemberMoney,
  purchasableCourse,
  setMemberMoney,
} from "./repository.ts";

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
  const course = await enrollableCourse(db, memberId, courseId);
  if (!course) throw courseGone();
  const existing = await findEnrolment(db, memberId, courseId);
  if (existing) return { enrolment: existing, created: false };
  if (Number(course.price) > 0) throw new ApiError(msg`This is a paid course: please buy it to enrol`);
  await insertFreeEnrolment(db, memberId, courseId);
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
    const balance = await lockMemberMoney(tx, memberId);
    const row = await purchasableCourse(tx, memberId, courseId);
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
    await setMemberMoney(tx, memberId, after);
    // The memo is a key with parameters, shown in the reader's language (account/memos.ts).
    const memo = memos.courseBought(title);
    await insertMoneyLog(tx, { memberId, amount: -current, before: balance, after, memo });
    const inserted = await insertPaidEnrolment(tx, memberId, row.id, current);
    return { enrolment: enrolment(inserted), money: after, charged: true };
  });
}
