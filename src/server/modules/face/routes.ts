import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { faceSnapshotFields } from "../../../shared/exam/face.ts";
import { jsonBody } from "../../../shared/schema.ts";
import { declareAuth } from "../../plugins/auth.ts";
import { decodeImage, enrolFace, hasReference, recordFaceCheck } from "./checks.ts";
import { MODELS_DIR, WASM_DIR } from "./engine.ts";

/**
 * Face checks: the member's enrolment and their official snapshots, and the browser's
 * copy of the library's models and WASM binaries served from our own origin (the device loads
 * them only on the screens that need a camera; the service worker keeps them once loaded).
 */

/** The model files the browser loads (detector, mesh, descriptor, liveness); others are not served. */
const MODEL_FILES = new Set(["blazeface", "facemesh", "faceres", "liveness"].flatMap((m) => [`${m}.json`, `${m}.bin`]));
const WASM_FILES = new Set(["tfjs-backend-wasm.wasm", "tfjs-backend-wasm-simd.wasm", "tfjs-backend-wasm-threaded-simd.wasm"]);
export const FACE_MODELS_PREFIX = "/face-models/";
export const FACE_WASM_PREFIX = "/face-wasm/";

/** A picture: base64 or a data: URL of a JPEG, PNG or WebP (at most 2 MB, i.e. about 2.7 MB of text). */
const image = z.string().min(1).max(3_000_000);
const BODY_LIMIT = 3_200_000;

async function memberFaceRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app;

  api.get("/api/user/face", async (req, reply) => reply.success({ enrolled: await hasReference(db, req.member!.id) }));

  api.post("/api/user/face", { bodyLimit: BODY_LIMIT, config: { rateLimit: { max: 20, timeWindow: "1 minute" } }, schema: { body: jsonBody(z.object({ image })) } }, async (req, reply) => {
    const result = await enrolFace(db, config.dataDir, req.member!.id, decodeImage(req.body.image), "member");
    return reply.success(result, msg`Your reference photo is saved`);
  });

  api.post(
    "/api/exam/official/face",
    { bodyLimit: BODY_LIMIT, config: { rateLimit: { max: 60, timeWindow: "1 minute" } }, schema: { body: jsonBody(faceSnapshotFields.extend({ image: image.optional() })) } },
    async (req, reply) => {
      const { image: picture, ...fields } = req.body;
      return reply.success(await recordFaceCheck(db, config.dataDir, req.member!.id, fields, picture));
    },
  );
}

export async function faceRoutes(app: FastifyInstance): Promise<void> {
  await app.register(declareAuth("member", memberFaceRoutes));
  const headers = (res: { setHeader(name: string, value: string): unknown }) => res.setHeader("cache-control", "public, max-age=604800");
  await app.register(fastifyStatic, {
    root: MODELS_DIR,
    prefix: FACE_MODELS_PREFIX,
    decorateReply: false,
    index: false,
    cacheControl: false,
    allowedPath: (pathName) => MODEL_FILES.has(pathName.replace(/^\//, "")),
    setHeaders: headers,
  });
  await app.register(fastifyStatic, {
    root: WASM_DIR,
    prefix: FACE_WASM_PREFIX,
    decorateReply: false,
    index: false,
    cacheControl: false,
    allowedPath: (pathName) => WASM_FILES.has(pathName.replace(/^\//, "")),
    setHeaders: headers,
  });
}
