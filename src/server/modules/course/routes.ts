import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { dbIdParam, jsonBody, withMessage } from "../../../shared/schema.ts";
import { ApiError } from "../../errors.ts";
import { needLogin } from "../../plugins/auth.ts";
import { buy, courseGone, enrol } from "./enrolment.ts";
import { issueMediaCookie } from "./mediaAccess.ts";
import { courseDetail, findEnrolment, findLesson, lessonDetail, listCourses, myCourses } from "./queries.ts";

/**
 * The member's course API (src/shared/course/types.ts is the contract): catalogue, detail,
 * enrol (free), buy (paid, from the balance), my courses, lesson detail. Queries live in
 * ./queries.ts, enrolling and buying in ./enrolment.ts; lesson progress arrives through the sync
 * queue (./progress.ts).
 */

const MAX_KEYWORD = 50;
export const MAX_PAGE_SIZE = 50;

const listQuery = withMessage(
  z.object({
    categoryId: z.coerce.number().int().min(0).max(2_147_483_647).default(0),
    keyword: z.string().trim().max(MAX_KEYWORD).default(""),
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(12),
  }),
  msg`Incorrect list parameters: page from 1, limit from 1 to 50, keyword at most 50 characters`,
);
const chooseCourse = msg`Please choose a course`;
const courseQuery = withMessage(z.object({ id: dbIdParam }), chooseCourse);
const lessonQuery = withMessage(z.object({ id: dbIdParam }), msg`Please choose a lesson`);
const enrolBody = withMessage(jsonBody(z.object({ courseId: dbIdParam })), chooseCourse);
const buyBody = withMessage(
  jsonBody(z.object({ courseId: dbIdParam, price: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) })),
  msg`Please choose a course and send the price you were shown (in cents)`,
);

/**
 * A course or lesson answer with an ETag of what it shows (its rows' update_time, which every
 * back-office edit sets, the member's enrolment and progress...): `Cache-Control: private,
 * no-cache` makes every visit ask again (the service worker's NetworkFirst, or the browser's
 * cache through it, sends If-None-Match), and an unchanged answer is a 304 without a body. So a
 * device never keeps a copy older than the member's last online visit.
 */
function successWithEtag(req: FastifyRequest, reply: FastifyReply, data: unknown): FastifyReply {
  const etag = `W/"${createHash("sha1").update(req.lang).update("\0").update(JSON.stringify(data)).digest("base64url")}"`;
  reply.header("etag", etag).header("cache-control", "private, no-cache");
  const given = req.headers["if-none-match"];
  if (typeof given === "string" && given.split(",").some((tag) => tag.trim() === etag)) return reply.code(304).send();
  return reply.success(data);
}

const lessonGone = () => new ApiError(msg`This lesson does not exist or is no longer available`);

export async function courseApiRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get("/api/course/list", { config: { auth: "optional" }, schema: { querystring: listQuery } }, async (req, reply) =>
    reply.success(await listCourses(db, req.query, req.member?.id ?? 0, req)),
  );

  api.get("/api/course/detail", { config: { auth: "optional" }, schema: { querystring: courseQuery } }, async (req, reply) => {
    const data = await courseDetail(db, req.query.id, req.member, req);
    if (!data) throw courseGone();
    return successWithEtag(req, reply, data);
  });

  api.post("/api/course/enrol", { config: { auth: "member" }, schema: { body: enrolBody } }, async (req, reply) => {
    const outcome = await enrol(db, req.member!.id, req.body.courseId);
    return reply.success({ enrolment: outcome.enrolment }, outcome.created ? msg`You are enrolled in this course` : msg`You are already enrolled in this course`);
  });

  api.post("/api/course/buy", { config: { auth: "member" }, schema: { body: buyBody } }, async (req, reply) => {
    const outcome = await buy(db, req.member!.id, req.body.courseId, req.body.price);
    return reply.success(
      { enrolment: outcome.enrolment, money: outcome.money },
      outcome.charged ? msg`Purchase complete: you are enrolled in this course` : msg`You are already enrolled in this course`,
    );
  });

  api.get("/api/course/my", { config: { auth: "member" } }, async (req, reply) => reply.success(await myCourses(db, req.member!.id)));

  api.get("/api/course/lesson", { config: { auth: "optional" }, schema: { querystring: lessonQuery } }, async (req, reply) => {
    const lesson = await findLesson(db, req.query.id, req.member?.id ?? 0);
    if (!lesson) throw lessonGone();
    // A free preview is open to everyone; any other lesson needs a logged-in, enrolled member.
    const member = req.member;
    if (!lesson.free_preview) {
      if (!member) throw needLogin();
      if (!(await findEnrolment(db, member.id, lesson.course_id))) throw new ApiError(msg`Please enrol in this course first`, 0, { courseId: lesson.course_id });
    }
    // The lesson's media are fetched by the video element and hls.js, which send no token header.
    if (member) await issueMediaCookie(db, req, reply, member.id);
    return successWithEtag(req, reply, await lessonDetail(db, lesson, member?.id ?? 0));
  });
}
