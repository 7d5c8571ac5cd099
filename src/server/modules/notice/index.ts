import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { DEFAULT_NOTICE_PREFERENCE, NOTICE_LIST_LIMIT, noticePreferenceBody, noticeReadBody, type NoticeData, type NoticeList } from "../../../shared/notice.ts";
import { jsonBody } from "../../../shared/schema.ts";
import { now } from "../../clock.ts";
import { ApiError } from "../../errors.ts";
import { markRead, memberNotices, noticePreference, saveNoticePreference, unreadCount } from "./repository.ts";

/**
 * The member's notices: the newest list with the unread count (the bell), mark one or all read,
 * and the switches of each kind and of push / email. The notices are made by service.ts.
 */
export async function noticeRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const seconds = () => Math.floor(now() / 1000);

  api.get("/api/notice/list", { config: { auth: "member" } }, async (req, reply) => {
    const userId = req.member!.id;
    const rows = await memberNotices(db, userId, NOTICE_LIST_LIMIT);
    const answer: NoticeList = {
      list: rows.map((r) => ({ id: Number(r.id), kind: r.kind, data: r.data as NoticeData, createTime: Number(r.create_time), readAt: r.read_at === null ? null : Number(r.read_at) })),
      unread: await unreadCount(db, userId),
    };
    return reply.success(answer);
  });

  api.post("/api/notice/read", { config: { auth: "member" }, schema: { body: jsonBody(noticeReadBody) } }, async (req, reply) => {
    const changed = await markRead(db, req.member!.id, req.body.id, seconds());
    return reply.success({ changed, unread: await unreadCount(db, req.member!.id) });
  });

  api.post("/api/notice/readAll", { config: { auth: "member" } }, async (req, reply) => {
    const changed = await markRead(db, req.member!.id, null, seconds());
    return reply.success({ changed, unread: 0 }, msg`All notices marked read`);
  });

  api.get("/api/notice/preference", { config: { auth: "member" } }, async (req, reply) => {
    return reply.success((await noticePreference(db, req.member!.id)) ?? DEFAULT_NOTICE_PREFERENCE);
  });

  api.post("/api/notice/preference", { config: { auth: "member" }, schema: { body: jsonBody(noticePreferenceBody) } }, async (req, reply) => {
    if (!req.member) throw new ApiError(msg`Please log in first`);
    await saveNoticePreference(db, req.member.id, req.body, seconds());
    return reply.success(req.body, msg`Notice settings saved`);
  });
}
