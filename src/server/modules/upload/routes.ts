import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { once } from "node:events";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyMultipart, { type MultipartFile } from "@fastify/multipart";
import { msg } from "@lingui/core/macro";
import { AVATAR_TOPIC, avatarRules } from "../../../shared/avatar.ts";
import { RICH_TEXT_IMAGE_TOPIC, richTextImageRules } from "../../../shared/richTextImage.ts";
import { isAllowedFileType, parseSize, type UploadConfig } from "../../../shared/upload.ts";
import { ApiError } from "../../errors.ts";
import { siteConfig } from "../site/config.ts";
import { storageServing } from "./serving.ts";
import { TYPE_NOT_ALLOWED, judgeUpload, sanitizeFileName, type ReceivedFile } from "./sniff.ts";
import { Storage, limitRefusal, memberUploadUse, uploadLimits, type Uploader } from "./storage.ts";
import { LocalStore } from "./store.ts";
import { lessonVideoRoutes } from "./video.ts";

/**
 * Uploads (SPEC §5 checks, §7 upload row): `POST /api/ajax/upload` (member) and
 * `POST /admin/ajax/upload` (admin), multipart field `file` and optional `topic`. Files are
 * stored once per (sha1, topic) at <topic>/<yyyymmdd>/<sha1>.<ext> in the file store
 * (DATA_DIR/storage, or an S3 bucket: store.ts) and served from `/storage/`.
 */

const TOPIC = /^[a-z0-9_-]{1,32}$/;
const DEFAULT_TOPIC = "default";
/** Bytes kept in memory for content sniffing and image dimensions (the rest goes to disk). */
const HEAD_BYTES = 64 * 1024;

interface Form {
  topic: string | undefined;
  file: ReceivedFile | null;
  /** The multipart body was malformed, cut short or over a parser limit. */
  broken: boolean;
}

/** The upload rules of the site config (SPEC §5), as the settings are now (read per upload). */
export async function uploadRules(config: FastifyInstance["config"], db: FastifyInstance["db"]): Promise<UploadConfig> {
  const { upload } = await siteConfig(config, db);
  return { maxsize: parseSize(upload.maxsize), mimetype: upload.mimetype };
}

/** Reads one file part through a hash, a byte counter and a NUL scan, to `tmpPath` or nowhere. */
async function receive(part: MultipartFile, name: string, tmpPath: string | null): Promise<ReceivedFile> {
  const hash = createHash("sha1");
  const head: Buffer[] = [];
  let headSize = 0;
  let size = 0;
  let hasNul = false;
  async function* tap(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of source) {
      hash.update(chunk);
      size += chunk.length;
      if (!hasNul && chunk.includes(0)) hasNul = true;
      if (headSize < HEAD_BYTES) {
        const piece = Buffer.from(chunk.subarray(0, HEAD_BYTES - headSize));
        head.push(piece);
        headSize += piece.length;
      }
      yield chunk;
    }
  }
  const sink = tmpPath ? createWriteStream(tmpPath, { flags: "wx", mode: 0o644 }) : new Writable({ write: (_chunk, _enc, done) => done() });
  try {
    await pipeline(part.file, tap, sink);
  } catch (error) {
    if (tmpPath) {
      // A write stream destroyed mid-way may still be opening its file: remove it once closed,
      // or the file would appear after the removal (a cut-off upload left a stray .part).
      if (!(sink as { closed?: boolean }).closed) await once(sink, "close").catch(() => undefined);
      await rm(tmpPath, { force: true });
    }
    throw error;
  }
  return {
    name,
    mimetype: part.mimetype,
    size,
    truncated: part.file.truncated,
    head: Buffer.concat(head),
    hasNul,
    sha1: hash.digest("hex"),
    tmpPath,
  };
}

/**
 * The multipart body: the `topic` field and the first `file` part (streamed to a temp file,
 * at most maxsize + 1 bytes; a part whose name/MIME already fails the type rule is only
 * counted). Other parts are drained. Parser errors mark the form broken.
 */
async function readForm(req: FastifyRequest, rules: UploadConfig, tempDir: string): Promise<Form> {
  const form: Form = { topic: undefined, file: null, broken: false };
  if (!req.isMultipart()) return { ...form, broken: true };
  try {
    const parts = req.parts({
      limits: { fileSize: rules.maxsize + 1, files: 1, fields: 10, parts: 20, fieldSize: 1024, headerPairs: 50 },
    });
    for await (const part of parts) {
      if (part.type === "field") {
        if (part.fieldname === "topic") form.topic = typeof part.value === "string" && !part.valueTruncated ? part.value : "\0";
        continue;
      }
      if (part.fieldname !== "file" || form.file) {
        await finished(part.file.resume());
        continue;
      }
      const name = sanitizeFileName(part.filename);
      const keep = name !== "" && isAllowedFileType(name, part.mimetype, rules.mimetype);
      if (keep) await mkdir(tempDir, { recursive: true });
      form.file = await receive(part, name, keep ? path.join(tempDir, `${randomBytes(12).toString("hex")}.part`) : null);
    }
  } catch (error) {
    req.log.info({ err: { code: (error as { code?: unknown }).code, message: (error as Error).message } }, "multipart upload rejected");
    form.broken = true;
  }
  return form;
}

/** The form field, else `?topic=`; absent or empty: "default"; null when not [a-z0-9_-]{1,32}. */
function uploadTopic(field: string | undefined, query: unknown): string | null {
  const given = field ?? (query === undefined || typeof query === "string" ? query : null);
  if (given === null) return null;
  const topic = given === undefined || given === "" ? DEFAULT_TOPIC : given;
  return TOPIC.test(topic) ? topic : null;
}

export async function uploadRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  const storage = new Storage(config, db);
  const { store } = storage;

  // The folder is created when DATA_DIR exists (always with the embedded database), else on
  // the first upload; either way /storage/ serves whatever is there. (An S3 store: nothing here.)
  if (store instanceof LocalStore && existsSync(path.dirname(store.root))) {
    try {
      mkdirSync(store.root, { recursive: true });
    } catch (error) {
      app.log.warn({ err: error }, "could not create the storage folder");
    }
  }
  await storage.sweepTemp();

  await app.register(fastifyMultipart, { throwFileSizeLimit: false });
  await storageServing(app, store);
  // Lesson videos (MP4 / WebM, or an HLS folder as a zip): streamed like any upload, larger limit.
  await lessonVideoRoutes(app, storage);

  const upload = async (req: FastifyRequest, reply: FastifyReply, who: Uploader) => {
    const rules = await uploadRules(config, db);
    // Members: a member already over the rate or out of space is answered before the body is read.
    const limits = who.userId !== null ? await uploadLimits(db) : null;
    if (who.userId !== null && limits) {
      const refusal = limitRefusal(await memberUploadUse(db, who.userId, Date.now()), limits, "unknown");
      if (refusal) throw refusal;
    }
    const form = await readForm(req, rules, storage.tempDir);
    try {
      const topic = uploadTopic(form.topic, (req.query as Record<string, unknown> | undefined)?.topic);
      if (!topic) throw new ApiError(msg`Incorrect parameter!`);
      let verdict = await judgeUpload(form.file, form.broken, rules);
      // An avatar is also held to the avatar rules: an image a browser shows, of a small size.
      if (!verdict.failure && topic === AVATAR_TOPIC) verdict = await judgeUpload(form.file, false, avatarRules(rules));
      // An image for rich text is held to the image types (the editor's image button, paste and drop).
      if (!verdict.failure && topic === RICH_TEXT_IMAGE_TOPIC) verdict = await judgeUpload(form.file, false, richTextImageRules(rules));
      if (verdict.failure || !form.file?.tmpPath) throw new ApiError(verdict.failure ?? TYPE_NOT_ALLOWED());
      const file = { ...form.file, tmpPath: form.file.tmpPath };
      const row = await storage.keep(file, topic, verdict, who, limits);
      req.log.info({ attachment: row.id, size: row.size, topic }, "file uploaded");
      return reply.success(
        {
          file: {
            id: row.id,
            url: row.url,
            name: file.name,
            size: Number(row.size),
            mimetype: row.mimetype,
            ...(row.width !== null && row.height !== null ? { width: row.width, height: row.height } : {}),
          },
        },
        msg`Upload successful`,
      );
    } finally {
      if (form.file?.tmpPath) await rm(form.file.tmpPath, { force: true });
    }
  };

  app.post("/api/ajax/upload", { config: { auth: "member" } }, async (req, reply) => upload(req, reply, { adminId: null, userId: req.member!.id }));

  app.post("/admin/ajax/upload", { config: { adminRule: "*" } }, async (req, reply) => {
    return upload(req, reply, { adminId: req.admin!.id, userId: null });
  });
}
