import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { memberTranscriptQuery, progressExportQuery, progressQuery, REPORT_GROUPS, transcriptExportQuery, type Transcript } from "../../../shared/reports.ts";
import { sendRows, type ExportColumn } from "../../crud/export.ts";
import type { Row } from "../../crud/resource.ts";
import { declareAuth } from "../../plugins/auth.ts";
import { groupOptions } from "./repository.ts";
import { progressReport, progressRows, reachOf, transcriptOf } from "./service.ts";

/**
 * Reports (API.md "Reports"):
 * - the member's own transcript (`GET /api/user/transcript`, `.../export`);
 * - a member's transcript for staff (`GET /admin/user/user/transcript?id=`, `transcriptExport`; rule
 *   `user/user/transcript`; a company admin reaches their companies' members only);
 * - the progress of a classroom, company or duty (`GET /admin/reports/progress/index`, `groups`,
 *   `export`; rules `reports/progress/index` and `reports/progress/export`).
 * Exports are CSV or XLSX through the list exports' writer (crud/export.ts).
 */

const now = () => Math.floor(Date.now() / 1000);

const TRANSCRIPT_COLUMNS: ExportColumn[] = [
  { key: "section", header: msg`Section` },
  { key: "title", header: msg`Title` },
  { key: "result", header: msg`Result` },
  { key: "status", header: msg`Status` },
  { key: "attempts", header: msg`Attempts` },
  { key: "at", header: msg`Date`, type: "time" },
];

/** The transcript as one table: a row per room, then per course. */
function transcriptRows(req: FastifyRequest, transcript: Transcript): Row[] {
  const t = req.t;
  return [
    ...transcript.rooms.map((r) => ({
      section: t(msg`Exam`),
      title: r.title,
      result: r.bestScore,
      status: t(r.passed ? msg`Passed` : msg`Not passed`),
      attempts: r.attemptsAllowed > 0 ? `${r.attemptsUsed}/${r.attemptsAllowed}` : String(r.attemptsUsed),
      at: r.lastAt,
    })),
    ...transcript.courses.map((c) => ({
      section: t(msg`Course`),
      title: c.title,
      result: `${c.lessonsDone}/${c.lessonsTotal}`,
      status: t(c.completedAt !== null ? msg`Completed` : c.lessonsDone > 0 ? msg`In progress` : msg`Not started`),
      attempts: null,
      at: c.completedAt,
    })),
    ...transcript.certificates.map((c) => ({
      section: t(msg`Certificate`),
      title: `${c.title} (${c.serial})`,
      result: c.score,
      status: t(c.revoked ? msg`Revoked` : msg`Valid`),
      attempts: null,
      at: c.issuedAt,
    })),
  ];
}

async function* once<T>(rows: T[]): AsyncGenerator<T[]> {
  yield rows;
}

function sendTranscript(req: FastifyRequest, reply: FastifyReply, transcript: Transcript, query: z.infer<typeof transcriptExportQuery>) {
  return sendRows(reply, {
    t: req.t,
    log: req.log,
    format: query.format,
    tz: query.tz,
    title: msg`Transcript`,
    name: `transcript-${transcript.member.username}`,
    columns: TRANSCRIPT_COLUMNS,
    rows: once(transcriptRows(req, transcript)),
  });
}

const PROGRESS_COLUMNS: ExportColumn[] = [
  { key: "id", header: msg`ID`, type: "int" },
  { key: "username", header: msg`Username` },
  { key: "nickname", header: msg`Nickname` },
  { key: "status", header: msg`Status` },
  { key: "overdue", header: msg`Overdue` },
  { key: "result", header: msg`Result` },
  { key: "lastAt", header: msg`Last activity`, type: "time" },
];

const STATUS_LABELS = {
  not_started: msg`Not started`,
  in_progress: msg`In progress`,
  failed: msg`Failed`,
  passed: msg`Passed`,
  completed: msg`Completed`,
} as const;

async function memberTranscriptRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get("/api/user/transcript", async (req, reply) => reply.success(await transcriptOf(app.db, req.member!.id, null, now())));
  api.get("/api/user/transcript/export", { schema: { querystring: transcriptExportQuery } }, async (req, reply) =>
    sendTranscript(req, reply, await transcriptOf(app.db, req.member!.id, null, now()), req.query),
  );
}

export async function reportRoutes(app: FastifyInstance): Promise<void> {
  await app.register(declareAuth("member", memberTranscriptRoutes));
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app;
  const transcriptRule = { adminRule: "user/user/transcript", companyAdmins: true };

  api.get("/admin/user/user/transcript", { config: transcriptRule, schema: { querystring: memberTranscriptQuery } }, async (req, reply) =>
    reply.success(await transcriptOf(db, req.query.id, reachOf(req.admin!), now())),
  );
  api.get("/admin/user/user/transcriptExport", { config: transcriptRule, schema: { querystring: memberTranscriptQuery.extend(transcriptExportQuery.shape) } }, async (req, reply) =>
    sendTranscript(req, reply, await transcriptOf(db, req.query.id, reachOf(req.admin!), now()), req.query),
  );

  const progressRule = { adminRule: "reports/progress/index", companyAdmins: true };
  api.get("/admin/reports/progress/index", { config: progressRule, schema: { querystring: progressQuery } }, async (req, reply) =>
    reply.success(await progressReport(db, req.query, reachOf(req.admin!), now())),
  );
  api.get("/admin/reports/progress/groups", { config: progressRule, schema: { querystring: z.object({ group: z.enum(REPORT_GROUPS) }) } }, async (req, reply) =>
    reply.success({ list: await groupOptions(db, req.query.group, reachOf(req.admin!)) }),
  );
  api.get("/admin/reports/progress/export", { config: { adminRule: "reports/progress/export", companyAdmins: true }, schema: { querystring: progressExportQuery } }, async (req, reply) => {
    const { format, tz, ...query } = req.query;
    const report = await progressRows(db, query, reachOf(req.admin!), now());
    const t = req.t;
    async function* rows(): AsyncGenerator<Row[]> {
      for await (const batch of report.rows) {
        yield batch.map((r) => ({ ...r, status: t(STATUS_LABELS[r.status]), overdue: r.overdue, result: report.kind === "room" ? r.bestScore : r.lessonsDone }));
      }
    }
    return sendRows(reply, { t, log: req.log, format, tz, title: report.title, name: `progress-${query.group}-${query.id}`, columns: PROGRESS_COLUMNS, rows: rows() });
  });
}
