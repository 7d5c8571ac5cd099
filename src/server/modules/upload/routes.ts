import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, mkdirSync, existsSync } from "node:fs";
import { mkdir, readFile, readdir, rename, rm, stat } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { Writable } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import { once } from "node:events";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fastifyMultipart, { type MultipartFile } from "@fastify/multipart";
import fastifyStatic, { type SetHeadersResponse } from "@fastify/static";
import { fileTypeFromBuffer, supportedExtensions, type FileTypeResult } from "file-type";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { checkUpload, isAllowedFileType, parseSize, type UploadConfig } from "../../../shared/upload.ts";
import type { Database, Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { getCountSetting } from "../../settings.ts";
import { courseMediaGuard } from "../course/mediaAccess.ts";
import { siteConfig } from "../site/config.ts";

/**
 * Uploads (SPEC §5 checks, §7 upload row): `POST /api/ajax/upload` (member) and
 * `POST /admin/ajax/upload` (admin), multipart field `file` and optional `topic`. Files are
 * stored once per (sha1, topic) under DATA_DIR/storage/<topic>/<yyyymmdd>/<sha1>.<ext> and
 * served from `/storage/`.
 */

const TOPIC = /^[a-z0-9_-]{1,32}$/;
const DEFAULT_TOPIC = "default";
const NAME_MAX = 100;
/** Bytes kept in memory for content sniffing and image dimensions (the rest goes to disk). */
const HEAD_BYTES = 64 * 1024;
const TEMP_DIR = ".tmp";
const STALE_TEMP_MS = 86_400_000;

const TYPE_NOT_ALLOWED = (): MessageDescriptor => msg`The type of uploaded file is not allowed!`;

/** Claimed extension -> detected (file-type) extensions that agree with it. */
const COMPATIBLE: Record<string, readonly string[]> = {
  jpg: ["jpg"],
  jpeg: ["jpg"],
  jpe: ["jpg"],
  jfif: ["jpg"],
  png: ["png", "apng"],
  tiff: ["tif"],
  mp4: ["mp4", "m4v", "mov", "m4a", "3gp", "f4v"],
  m4v: ["m4v", "mp4", "mov"],
  m4a: ["m4a", "mp4"],
  mov: ["mov", "mp4", "m4v"],
  webm: ["webm", "mkv"],
  mkv: ["mkv", "webm"],
  ogg: ["ogg", "oga", "ogv", "opus", "spx", "ogm", "ogx"],
  oga: ["oga", "ogg", "opus", "spx"],
  ogv: ["ogv", "ogg", "ogm"],
  zip: ["zip", "docx", "xlsx", "pptx", "epub", "jar", "apk", "odt", "ods", "odp", "xpi"],
  docx: ["docx", "zip"],
  xlsx: ["xlsx", "zip"],
  pptx: ["pptx", "zip"],
  doc: ["cfb"],
  xls: ["cfb"],
  ppt: ["cfb"],
};

/** Text formats file-type cannot (or need not) recognise: accepted when the bytes hold no NUL. */
const TEXT_TYPES: Record<string, string> = {
  txt: "text/plain",
  text: "text/plain",
  log: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  ini: "text/plain",
  srt: "text/plain",
  vtt: "text/vtt",
  ics: "text/calendar",
  vcf: "text/vcard",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  svg: "image/svg+xml",
};

/** Served inline from /storage (everything else is a download). SVG is deliberately absent. */
export const INLINE_TYPES: ReadonlySet<string> = new Set([
  "jpg", "jpeg", "png", "apng", "gif", "webp", "bmp", "avif", "ico",
  "mp4", "m4v", "mov", "webm", "ogv", "mp3", "m4a", "wav", "ogg", "oga", "opus", "flac", "aac",
  // HLS playlists and segments: fetched by hls.js (same-origin XHR) or played natively.
  "m3u8", "ts", "m4s",
]);

export interface ImageSize {
  width: number;
  height: number;
}

export interface ReceivedFile {
  /** Sanitised original name (display only). */
  name: string;
  /** MIME type the client declared. */
  mimetype: string;
  size: number;
  /** The stream hit the multipart limit (maxsize + 1): too large. */
  truncated: boolean;
  head: Buffer;
  hasNul: boolean;
  sha1: string;
  /** Where the bytes were written; null when the name alone already failed the type check. */
  tmpPath: string | null;
}

interface Form {
  topic: string | undefined;
  file: ReceivedFile | null;
  /** The multipart body was malformed, cut short or over a parser limit. */
  broken: boolean;
}

export interface Verdict {
  failure: MessageDescriptor | null;
  detected?: FileTypeResult;
  /** Stored file's extension (never taken from the client unless it passed the type rule). */
  suffix?: string;
  mimetype?: string;
}

interface AttachmentRow {
  id: number;
  url: string;
  width: number | null;
  height: number | null;
  size: number;
  mimetype: string;
}

/** The upload rules of the site config (SPEC §5). */
export function uploadRules(config: FastifyInstance["config"]): UploadConfig {
  const { upload } = siteConfig(config);
  return { maxsize: parseSize(upload.maxsize), mimetype: upload.mimetype };
}

/**
 * A client file name made safe to keep for display: no path (either slash), no control or
 * bidi-override characters, at most 100 characters (the extension is kept when cut).
 */
export function sanitizeFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? "";
  const clean = [...base]
    .filter((ch) => {
      const c = ch.codePointAt(0) ?? 0;
      return c >= 0x20 && !(c >= 0x7f && c <= 0x9f) && !(c >= 0x202a && c <= 0x202e) && !(c >= 0x2066 && c <= 0x2069);
    })
    .join("")
    .trim();
  if (clean === "." || clean === "..") return "";
  const chars = [...clean];
  if (chars.length <= NAME_MAX) return clean;
  const dot = clean.lastIndexOf(".");
  const ext = dot > 0 ? [...clean.slice(dot)] : [];
  if (ext.length === 0 || ext.length > 17) return chars.slice(0, NAME_MAX).join("");
  return chars.slice(0, NAME_MAX - ext.length).join("") + ext.join("");
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot >= 0 ? name.slice(dot + 1).toLowerCase() : "";
}

const mimeOf = (value: string): string => value.split(";")[0]?.trim().toLowerCase() ?? "";

/** Width and height from a PNG, GIF, JPEG, WebP or BMP header (undefined when not found). */
export function imageSize(buf: Buffer, type: string): ImageSize | undefined {
  const size = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : undefined);
  switch (type) {
    case "png":
    case "apng":
      if (buf.length < 24 || buf.toString("latin1", 12, 16) !== "IHDR") return undefined;
      return size(buf.readUInt32BE(16), buf.readUInt32BE(20));
    case "gif":
      return buf.length < 10 ? undefined : size(buf.readUInt16LE(6), buf.readUInt16LE(8));
    case "bmp": {
      if (buf.length < 26) return undefined;
      if (buf.readUInt32LE(14) === 12) return size(buf.readUInt16LE(18), buf.readUInt16LE(20));
      return size(buf.readInt32LE(18), Math.abs(buf.readInt32LE(22)));
    }
    case "webp": {
      if (buf.length < 30 || buf.toString("latin1", 8, 12) !== "WEBP") return undefined;
      const chunk = buf.toString("latin1", 12, 16);
      if (chunk === "VP8X") return size(1 + buf.readUIntLE(24, 3), 1 + buf.readUIntLE(27, 3));
      if (chunk === "VP8L") {
        const bits = buf.readUInt32LE(21);
        return size((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
      }
      if (chunk === "VP8 ") return size(buf.readUInt16LE(26) & 0x3fff, buf.readUInt16LE(28) & 0x3fff);
      return undefined;
    }
    case "jpg": {
      let at = 2;
      while (at + 9 <= buf.length) {
        if (buf[at] !== 0xff) return undefined;
        const marker = buf[at + 1] ?? 0;
        if (marker === 0xff) {
          at += 1;
          continue;
        }
        const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
        if (isSof) return size(buf.readUInt16BE(at + 7), buf.readUInt16BE(at + 5));
        if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
          at += 2;
          continue;
        }
        at += 2 + buf.readUInt16BE(at + 2);
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * SPEC §5 order: incomplete data, disallowed type, size above the maximum. The type check is
 * the name/MIME rule (checkUpload) and then the content: what file-type recognises must agree
 * with the extension (or, for a file allowed by its MIME type only, with that MIME type); text
 * formats it cannot recognise must hold no NUL byte; a known binary format must be recognised.
 */
export async function judgeUpload(file: ReceivedFile | null, broken: boolean, rules: UploadConfig): Promise<Verdict> {
  if (broken || !file || file.size === 0) return { failure: checkUpload(null, rules) };
  const declared = checkUpload({ name: file.name, type: file.mimetype, size: 0 }, rules);
  if (declared) return { failure: declared };

  let detected: FileTypeResult | undefined;
  try {
    detected = await fileTypeFromBuffer(file.head);
  } catch {
    detected = undefined;
  }
  const ext = extensionOf(file.name);
  const byExtension = isAllowedFileType(file.name, "", rules.mimetype);
  const safeExt = /^[a-z0-9]{1,16}$/.test(ext) ? ext : "";
  let verdict: Verdict;
  if (byExtension && safeExt === "") {
    // The list is `*` and the name has no usable extension: nothing to contradict.
    verdict = { failure: null, detected, suffix: detected?.ext ?? "", mimetype: detected?.mime ?? "application/octet-stream" };
  } else if (byExtension) {
    let ok: boolean;
    if (TEXT_TYPES[ext] !== undefined) ok = !file.hasNul;
    else if (detected) ok = detected.ext === ext || (COMPATIBLE[ext]?.includes(detected.ext) ?? !isKnownBinary(ext));
    else ok = !isKnownBinary(ext);
    verdict = ok
      ? { failure: null, detected, suffix: ext, mimetype: TEXT_TYPES[ext] ?? detected?.mime ?? "application/octet-stream" }
      : { failure: TYPE_NOT_ALLOWED() };
  } else {
    // Allowed by the declared MIME type only: the content decides the stored suffix.
    const declaredMime = mimeOf(file.mimetype);
    if (detected) {
      verdict = detected.mime === declaredMime ? { failure: null, detected, suffix: detected.ext, mimetype: detected.mime } : { failure: TYPE_NOT_ALLOWED() };
    } else if (declaredMime.startsWith("text/") && !file.hasNul) {
      verdict = { failure: null, suffix: "txt", mimetype: "text/plain" };
    } else {
      verdict = { failure: TYPE_NOT_ALLOWED() };
    }
  }
  if (verdict.failure) return verdict;
  const size = file.truncated ? Math.max(file.size, rules.maxsize + 1) : file.size;
  const failure = checkUpload({ name: file.name, type: file.mimetype, size }, rules);
  return failure ? { failure } : verdict;
}

function isKnownBinary(ext: string): boolean {
  return supportedExtensions.has(ext) || COMPATIBLE[ext] !== undefined;
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

function dayFolder(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}`;
}

async function exists(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

interface Uploader {
  adminId: number | null;
  userId: number | null;
}

/** Member uploads older than this are forgotten by the rate (kept an hour, then removed). */
const RATE_WINDOW_MS = 60_000;
const EVENT_KEEP_MS = 3_600_000;
const MIB = 1024 * 1024;

/** The member limits of the site settings (admins have none). */
export interface UploadLimits {
  perMinute: number;
  quotaBytes: number;
}

interface UploadUse {
  /** Uploads accepted in the last minute. */
  recent: number;
  /** Bytes of the distinct files the member stores. */
  used: number;
}

async function uploadLimits(db: Queryable): Promise<UploadLimits> {
  const [perMinute, quota] = await Promise.all([getCountSetting(db, "upload_rate_per_minute"), getCountSetting(db, "upload_quota_mib")]);
  return { perMinute, quotaBytes: quota * MIB };
}

async function memberUploadUse(db: Queryable, userId: number, now: number): Promise<UploadUse> {
  const { rows } = await db.query<{ recent: number; used: number }>(
    `select (select count(*)::int from member_upload_event where user_id = $1 and at > $2) as recent,
            (select coalesce(sum(size), 0)::bigint from member_upload where user_id = $1) as used`,
    [userId, now - RATE_WINDOW_MS],
  );
  return { recent: rows[0]!.recent, used: Number(rows[0]!.used) };
}

/** "3.5 MB", "120 KB", "12 B" (binary units, as the quota is set in MiB). */
export function formatStorageSize(bytes: number): string {
  if (bytes >= MIB) return `${Number((bytes / MIB).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${Math.max(0, bytes)} B`;
}

/**
 * Why an upload is refused (null: it fits the rate and the quota): `adding` bytes more, or
 * "unknown" before the file is read (refused only when the space is already full).
 */
function limitRefusal(use: UploadUse, limits: UploadLimits, adding: number | "unknown"): ApiError | null {
  if (use.recent >= limits.perMinute) {
    const limit = limits.perMinute;
    return new ApiError(msg`You can upload at most ${limit} files a minute: please wait a moment and try again`, 0, { limit });
  }
  const quota = formatStorageSize(limits.quotaBytes);
  const data = { quota: limits.quotaBytes, used: use.used };
  if (adding === "unknown" ? use.used >= limits.quotaBytes : adding > 0 && use.used + adding > limits.quotaBytes) {
    if (adding === "unknown" || use.used >= limits.quotaBytes) return new ApiError(msg`Your upload space of ${quota} is full: no more files can be stored`, 0, data);
    const left = formatStorageSize(limits.quotaBytes - use.used);
    const size = formatStorageSize(adding);
    return new ApiError(msg`Not enough upload space: this file needs ${size} and ${left} of your ${quota} is left`, 0, data);
  }
  return null;
}

/** Files under DATA_DIR/storage, their rows in `attachment`. */
class Storage {
  readonly root: string;
  readonly tempDir: string;

  constructor(
    dataDir: string,
    private readonly db: Database,
  ) {
    this.root = path.join(path.resolve(dataDir), "storage");
    this.tempDir = path.join(this.root, TEMP_DIR);
  }

  /** The file behind a `/storage/...` URL we issued; never outside the storage folder. */
  fileFor(url: string): string {
    const full = path.resolve(this.root, url.replace(/^\/storage\//, ""));
    if (!full.startsWith(this.root + path.sep)) throw new Error(`attachment url outside storage: ${url}`);
    return full;
  }

  /**
   * Records the upload and moves the received file into place, in one transaction: a new
   * attachment row, or the existing row's `quote` + 1 and `last_upload_time` (the row lock
   * orders concurrent uploads of one content). A member's upload first locks the member row,
   * so the member's uploads take turns: the rate and the quota are checked against what is
   * committed, and a refused upload leaves no row and no file. A file this upload put in place
   * is removed again when the transaction fails after it.
   */
  async keep(file: ReceivedFile & { tmpPath: string }, topic: string, verdict: Verdict, who: Uploader, limits: UploadLimits | null): Promise<AttachmentRow> {
    const existing = await this.db.query<{ url: string }>("select url from attachment where sha1 = $1 and topic = $2", [file.sha1, topic]);
    const image = !existing.rows[0] && verdict.detected ? await this.dimensions(file, verdict.detected.ext) : undefined;
    const url = `/storage/${topic}/${dayFolder(new Date())}/${file.sha1}${verdict.suffix ? `.${verdict.suffix}` : ""}`;

    return this.db.transaction(async (tx) => {
      const now = Date.now();
      if (who.userId !== null && limits) {
        await tx.query("select id from member where id = $1 for update", [who.userId]);
        const held = await tx.query(
          "select 1 from member_upload u join attachment a on a.id = u.attachment_id where u.user_id = $1 and a.sha1 = $2 and a.topic = $3",
          [who.userId, file.sha1, topic],
        );
        const refusal = limitRefusal(await memberUploadUse(tx, who.userId, now), limits, held.rows.length > 0 ? 0 : file.size);
        if (refusal) throw refusal;
      }
      const seconds = Math.floor(now / 1000);
      const { rows } = await tx.query<AttachmentRow & { inserted: boolean }>(
        `insert into attachment (topic, admin_id, user_id, url, width, height, name, size, mimetype, sha1, storage, create_time, last_upload_time)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'local', $11, $11)
         on conflict (sha1, topic) do update set quote = attachment.quote + 1, last_upload_time = excluded.last_upload_time
         returning id, url, width, height, size, mimetype, (xmax = 0) as inserted`,
        [topic, who.adminId, who.userId, url, image?.width ?? null, image?.height ?? null, file.name, file.size, verdict.mimetype, file.sha1, seconds],
      );
      const row = rows[0]!;
      const target = this.fileFor(row.url);
      const placed = await this.place(file.tmpPath, target);
      try {
        if (who.userId !== null) {
          await tx.query(
            `insert into member_upload (user_id, attachment_id, size, create_time, last_upload_time) values ($1, $2, $3, $4, $4)
             on conflict (user_id, attachment_id) do update set uploads = member_upload.uploads + 1, last_upload_time = excluded.last_upload_time`,
            [who.userId, row.id, row.size, seconds],
          );
          await tx.query("insert into member_upload_event (user_id, at) values ($1, $2)", [who.userId, now]);
          await tx.query("delete from member_upload_event where user_id = $1 and at < $2", [who.userId, now - EVENT_KEEP_MS]);
        }
      } catch (error) {
        // Nobody else can see the new row before this transaction ends: its file goes with it.
        if (placed && row.inserted) await rm(target, { force: true });
        throw error;
      }
      const { inserted: _inserted, ...attachment } = row;
      return attachment;
    });
  }

  /** Moves `from` to `to` unless `to` already holds the content; true when it moved it. */
  private async place(from: string, to: string): Promise<boolean> {
    if (await exists(to)) {
      await rm(from, { force: true });
      return false;
    }
    await mkdir(path.dirname(to), { recursive: true });
    await rename(from, to);
    return true;
  }

  private async dimensions(file: ReceivedFile, type: string): Promise<ImageSize | undefined> {
    const fromHead = imageSize(file.head, type);
    if (fromHead || type !== "jpg" || file.size <= file.head.length || !file.tmpPath) return fromHead;
    // A JPEG whose frame header lies past the first 64 KB (large EXIF/ICC blocks): read it all
    // (at most maxsize bytes, the file passed the size check).
    const stored = await readFile(file.tmpPath).catch(() => undefined);
    return stored ? imageSize(stored, type) : undefined;
  }

  /** Temp files left by a crash (older than a day) are removed at start. */
  async sweepTemp(): Promise<void> {
    const names = await readdir(this.tempDir).catch(() => [] as string[]);
    const cutoff = Date.now() - STALE_TEMP_MS;
    for (const name of names) {
      const file = path.join(this.tempDir, name);
      const info = await stat(file).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) await rm(file, { force: true });
    }
  }
}

/** The CSP of everything served from /storage: nothing runs script, even when opened directly. */
export const STORAGE_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/**
 * Headers for a stored file: never sniffed, sandboxed, downloads unless safe inline (PDFs are
 * downloads: browsers' PDF viewers do not run under a sandbox CSP).
 */
function storageHeaders(res: SetHeadersResponse, filePath: string, cacheControl: string): void {
  const ext = extensionOf(filePath);
  res.setHeader("cache-control", cacheControl);
  res.setHeader("x-content-type-options", "nosniff");
  if (!INLINE_TYPES.has(ext)) res.setHeader("content-disposition", `attachment; filename="${path.basename(filePath)}"`);
  res.setHeader("content-security-policy", STORAGE_CSP);
}

export async function uploadRoutes(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  const storage = new Storage(config.dataDir, db);

  // The folder is created when DATA_DIR exists (always with the embedded database), else on
  // the first upload; either way /storage/ serves whatever is there.
  if (existsSync(path.dirname(storage.root))) {
    try {
      mkdirSync(storage.root, { recursive: true });
    } catch (error) {
      app.log.warn({ err: error }, "could not create the storage folder");
    }
  }
  await storage.sweepTemp();

  await app.register(fastifyMultipart, { throwFileSizeLimit: false });
  // Course media only for whoever may watch their lesson (course/mediaAccess.ts).
  const guard = courseMediaGuard(db);
  app.addHook("onRequest", async (req, reply) => {
    if (req.routeOptions.url === "/storage/*") return guard.onRequest(req, reply);
  });
  await app.register(fastifyStatic, {
    root: storage.root,
    prefix: "/storage/",
    decorateReply: false,
    index: false,
    dotfiles: "ignore",
    cacheControl: false,
    allowedPath: guard.allowedPath,
    // @fastify/static hands over the raw response; the guard knows the request behind it.
    setHeaders: (res, filePath) => storageHeaders(res, filePath, guard.cacheControl((res as unknown as ServerResponse).req)),
  });

  const upload = async (req: FastifyRequest, reply: FastifyReply, who: Uploader) => {
    const rules = uploadRules(config);
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
      const verdict = await judgeUpload(form.file, form.broken, rules);
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
