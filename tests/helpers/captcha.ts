import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { Queryable } from "../../src/server/db/index.ts";

/** Creates a click captcha through the API and answers it from the stored answer (test DB only). */
export async function solvedCaptcha(app: FastifyInstance, db: Queryable): Promise<{ captchaId: string; captchaInfo: string }> {
  const id = randomUUID();
  const res = await app.inject({ method: "GET", url: `/api/common/clickCaptcha?id=${id}` });
  if (res.json().code !== 1) throw new Error(`captcha: ${res.body}`);
  const { rows } = await db.query<{ answer: { x: number; y: number; w: number; h: number }[]; width: number; height: number }>(
    "select answer, width, height from captcha where id = $1",
    [id],
  );
  const { answer, width, height } = rows[0]!;
  const points = answer.map((b) => `${Math.round(b.x + b.w / 2)},${Math.round(b.y + b.h / 2)}`).join("-");
  return { captchaId: id, captchaInfo: `${points};${width};${height}` };
}
