import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { MAX_LOOKUP_IDS, type QuestionLookup } from "../../../shared/exam/lookup.ts";
import { presentQuestion } from "./questions.ts";
import { openQuestionsByIds } from "./repository.ts";

const ids = z
  .string()
  .max(MAX_LOOKUP_IDS * 11)
  .transform((text) => text.split(","))
  .pipe(z.array(z.string().regex(/^\d{1,10}$/).transform(Number).pipe(z.number().int().min(1).max(2_147_483_647))).min(1).max(MAX_LOOKUP_IDS));

/**
 * `GET /api/exam/questions?ids=`: the member's favourite or wrong questions whose bank is not on
 * the device. Never answers or analysis: the bank download (`/api/exam/bank`) carries those as
 * far as the member may see them, and the client offers to save the bank.
 */
export async function lookupRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;

  const query = z.object({ ids });
  app.withTypeProvider<ZodTypeProvider>().get("/api/exam/questions", { config: { auth: "member" }, schema: { querystring: query } }, async (req, reply) => {
    const wanted = [...new Set(req.query.ids)];
    const rows = await openQuestionsByIds(db, wanted, req.member!.id);
    const banks = new Map<number, string>();
    for (const r of rows) banks.set(r.classify_id, req.lang === "en" && r.bank_title_en ? r.bank_title_en : r.bank_title);
    return reply.success<QuestionLookup>({
      questions: rows.map((r) => presentQuestion(r, false)),
      banks: [...banks].map(([id, title]) => ({ id, title })),
    });
  });
}
