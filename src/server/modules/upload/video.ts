import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { finished, pipeline } from "node:stream/promises";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { fileTypeFromBuffer } from "file-type";
import { msg } from "@lingui/core/macro";
import yauzl from "yauzl";
import { MAX_LESSON_DURATION, MAX_VIDEO_BYTES, type UploadedVideo } from "../../../shared/admin/courses.ts";
import { ApiError } from "../../errors.ts";
import { extensionOf, sanitizeFileName, type ReceivedFile } from "./sniff.ts";
import { HLS_TOPIC, type Storage, type Uploader } from "./storage.ts";

/**
 * `POST /admin/course/lesson/upload` (rule `course/lesson/upload`, multipart field `file`): a
 * lesson's video. An MP4 or WebM file (its content must be what its name says) is kept like any
 * upload (an attachment row, DATA_DIR/storage/course/<day>/<sha1>.<ext>); an HLS folder sent as a
 * .zip is checked entry by entry before anything is unpacked (no absolute or `..` paths, only
 * HLS media files, at most MAX_ENTRIES entries and MAX_UNZIPPED bytes, no entry unpacking to more
 * than MAX_RATIO times its compressed size (plus ENTRY_ALLOWANCE), the whole to no more than
 * MAX_RATIO times the zip's size (plus ARCHIVE_ALLOWANCE): zip bombs are refused from the central
 * directory, and yauzl checks each entry's real size against it while unpacking), then unpacked into a staging folder and moved
 * whole to DATA_DIR/storage/course/hls/<sha1 of the zip>/ (the playlist's folder: course/mediaAccess.ts
 * serves every media file under it to whoever may watch the lesson), recorded as an attachment
 * row too (topic `course/hls`, its URL the playlist's). Both kinds of row are `lesson_video`:
 * when no lesson uses the video any more (deleted, or given another video), the row and the
 * file or folder go (Storage.removeUnused, from the lesson resource's hooks).
 *
 * The body is streamed to a temp file (never held in memory); a cut-off upload, a refused file or
 * a failed unpack leaves nothing behind (the temp file and staging folder are removed). The answer
 * is the lesson form's `video` {url, type, size, duration, name}: the duration of an HLS video is
 * the sum of its playlist's #EXTINF; for MP4/WebM the browser reads it from the file (0 here).
 */

export const MAX_ENTRIES = 5_000;
export const MAX_UNZIPPED = 4 * 1024 ** 3;
/**
 * Most bytes an entry may unpack to per compressed byte, and the whole zip per byte of the zip.
 * Video segments hardly compress (about 1:1), playlists a few times; a small allowance keeps
 * tiny files (a playlist of 200 bytes in 120) fine, and bounds what many small entries can add.
 */
export const MAX_RATIO = 100;
export const ENTRY_ALLOWANCE = 64 * 1024;
export const ARCHIVE_ALLOWANCE = 1024 * 1024;
const MAX_PLAYLIST_BYTES = 2 * 1024 * 1024;
const HEAD_BYTES = 4096;
const HLS_MIMETYPE = "application/vnd.apple.mpegurl";
/** Files an HLS folder may hold (the media types of course/mediaAccess.ts). */
const HLS_FILES = new Set(["m3u8", "m4s", "ts", "mp4", "m4v", "m4a", "aac", "mp3", "ac3", "ec3", "vtt", "webvtt", "key", "cmfv", "cmfa", "cmft"]);
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,99}$/;
/** Entries zip tools add that are no part of the video (macOS resource forks, Finder files). */
const IGNORED = (name: string) => name.startsWith("__MACOSX/") || name.split("/").some((s) => s.startsWith("."));

const notAVideo = () => new ApiError(msg`Please upload an MP4 or WebM video, or an HLS folder as a .zip`);

interface Received extends ReceivedFile {
  tmpPath: string;
}

/** Streams the one `file` part to a temp file; any failure (cut-off body, parser limit) removes it. */
async function receiveVideo(req: FastifyRequest, tempDir: string): Promise<Received> {
  if (!req.isMultipart()) throw notAVideo();
  let received: Received | null = null;
  let tooLarge = false;
  let broken = false;
  const tmpPath = path.join(tempDir, `${randomBytes(12).toString("hex")}.part`);
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_VIDEO_BYTES + 1, files: 1, fields: 5, parts: 10, fieldSize: 1024, headerPairs: 50 } })) {
      if (part.type === "field") continue;
      if (part.fieldname !== "file" || received) {
        await finished(part.file.resume());
        continue;
      }
      const name = sanitizeFileName(part.filename);
      if (!["mp4", "webm", "zip"].includes(extensionOf(name))) {
        await finished(part.file.resume());
        throw notAVideo();
      }
      await mkdir(tempDir, { recursive: true });
      const head: Buffer[] = [];
      let headSize = 0;
      let size = 0;
      const hash = createHash("sha1");
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          size += chunk.length;
          if (headSize < HEAD_BYTES) {
            const piece = Buffer.from(chunk.subarray(0, HEAD_BYTES - headSize));
            head.push(piece);
            headSize += piece.length;
          }
          done(null, chunk);
        },
      });
      const sink = createWriteStream(tmpPath, { flags: "wx", mode: 0o644 });
      try {
        await pipeline(part.file, tap, sink);
      } catch (error) {
        // Wait for the file to be open and closed before removing it (else it appears after the rm).
        if (!sink.closed) await finished(sink).catch(() => undefined);
        throw error;
      }
      if (part.file.truncated) tooLarge = true;
      received = { name, mimetype: part.mimetype, size, truncated: part.file.truncated, head: Buffer.concat(head), hasNul: false, sha1: hash.digest("hex"), tmpPath };
    }
  } catch (error) {
    if (error instanceof ApiError) {
      await rm(tmpPath, { force: true });
      throw error;
    }
    req.log.info({ err: { code: (error as { code?: unknown }).code, message: (error as Error).message } }, "lesson video upload cut off");
    broken = true;
  }
  if (broken || tooLarge || !received || received.size === 0) {
    await rm(tmpPath, { force: true });
    if (tooLarge) throw new ApiError(msg`The video is larger than 2 GB`);
    if (broken) throw new ApiError(msg`The upload was interrupted: please try again`);
    throw notAVideo();
  }
  return received;
}

const openZip = (file: string) =>
  new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true }, (error, zip) => (error || !zip ? reject(error ?? new Error("no zip")) : resolve(zip))),
  );

/** Every entry of the central directory (nothing unpacked), refused as a whole when one is bad. */
async function readEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  if (zip.entryCount > MAX_ENTRIES) throw new ApiError(msg`The zip holds more than ${MAX_ENTRIES} files`);
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on("entry", (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    zip.on("error", reject);
    zip.readEntry();
  });
}

/**
 * Which entries to unpack where: the top-most playlist's folder becomes the video's folder.
 * `zipBytes` is the zip's own size: entries may share compressed data (overlapping entries), so
 * the whole is measured against the file, not against the sum of the entries' compressed sizes.
 */
export function planZip(
  entries: readonly Pick<yauzl.Entry, "fileName" | "uncompressedSize" | "compressedSize">[],
  zipBytes: number,
): { files: { index: number; to: string }[]; playlist: string; bytes: number } {
  const files: { index: number; name: string }[] = [];
  let bytes = 0;
  entries.forEach((entry, index) => {
    const name = entry.fileName;
    if (name.endsWith("/") || IGNORED(name)) return;
    const parts = name.split("/");
    if (name.startsWith("/") || name.includes("\\") || /^[A-Za-z]:/.test(name) || parts.length > 6 || parts.some((p) => p === "" || p === "." || p === ".." || !SEGMENT.test(p))) {
      const shown = name.slice(0, 80);
      throw new ApiError(msg`The zip holds a path that is not allowed: ${shown}`);
    }
    const shown = name.slice(0, 80);
    if (!HLS_FILES.has(extensionOf(name))) throw new ApiError(msg`The zip holds a file that is not part of an HLS video: ${shown}`);
    // Every entry, however small: 100 entries of 1 MiB of zeros are 1 kB each compressed.
    if (entry.uncompressedSize > MAX_UNZIPPED || entry.uncompressedSize > ENTRY_ALLOWANCE + MAX_RATIO * entry.compressedSize) {
      throw new ApiError(msg`The zip holds a file that unpacks to far more than its size (a zip bomb): ${shown}`);
    }
    bytes += entry.uncompressedSize;
    if (bytes > MAX_UNZIPPED) throw new ApiError(msg`The zip unpacks to more than 4 GB`);
    if (bytes > ARCHIVE_ALLOWANCE + MAX_RATIO * zipBytes) throw new ApiError(msg`The zip unpacks to far more than its size (a zip bomb)`);
    files.push({ index, name });
  });
  const playlists = files.filter((f) => extensionOf(f.name) === "m3u8");
  if (playlists.length === 0) throw new ApiError(msg`The zip holds no .m3u8 playlist`);
  const depth = (n: string) => n.split("/").length;
  const preferred = ["master.m3u8", "index.m3u8", "playlist.m3u8"];
  const rank = (n: string) => {
    const at = preferred.indexOf(n.split("/").pop()!.toLowerCase());
    return at < 0 ? preferred.length : at;
  };
  const top = [...playlists].sort((a, b) => depth(a.name) - depth(b.name) || rank(a.name) - rank(b.name) || a.name.localeCompare(b.name))[0]!;
  const folder = top.name.includes("/") ? top.name.slice(0, top.name.lastIndexOf("/") + 1) : "";
  const outside = files.find((f) => !f.name.startsWith(folder));
  if (outside) {
    const shown = outside.name.slice(0, 80);
    throw new ApiError(msg`Every file of the zip must be in the playlist's folder: ${shown} is not`);
  }
  return { files: files.map((f) => ({ index: f.index, to: f.name.slice(folder.length) })), playlist: top.name.slice(folder.length), bytes };
}

/** Seconds of an HLS video: its media playlist's #EXTINF sum (a master playlist: its first variant's). */
export async function hlsDuration(folder: string, playlist: string): Promise<number> {
  const read = async (relative: string): Promise<string> => {
    const file = path.resolve(folder, relative);
    if (!file.startsWith(folder + path.sep)) return "";
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || info.size > MAX_PLAYLIST_BYTES) return "";
    return readFile(file, "utf8");
  };
  const sum = (text: string) => text.split(/\r?\n/).reduce((total, line) => total + (/^#EXTINF:\s*([\d.]+)/.exec(line) ? Number(/^#EXTINF:\s*([\d.]+)/.exec(line)![1]) : 0), 0);
  const text = await read(playlist);
  if (!text.startsWith("#EXTM3U")) throw new ApiError(msg`The playlist is not an HLS playlist (it must start with #EXTM3U)`);
  let seconds = sum(text);
  if (seconds === 0 && text.includes("#EXT-X-STREAM-INF")) {
    const lines = text.split(/\r?\n/);
    const at = lines.findIndex((l) => l.startsWith("#EXT-X-STREAM-INF"));
    const variant = lines.slice(at + 1).find((l) => l.trim() !== "" && !l.startsWith("#"))?.trim();
    if (variant && !/^[a-z]+:/i.test(variant)) seconds = sum(await read(path.posix.join(path.posix.dirname(playlist), variant)));
  }
  return Math.min(MAX_LESSON_DURATION, Math.round(seconds));
}

async function unpack(zip: yauzl.ZipFile, entries: yauzl.Entry[], plan: ReturnType<typeof planZip>, staging: string): Promise<void> {
  for (const file of plan.files) {
    const target = path.resolve(staging, file.to);
    const shown = file.to;
    if (!target.startsWith(staging + path.sep)) throw new ApiError(msg`The zip holds a path that is not allowed: ${shown}`);
    await mkdir(path.dirname(target), { recursive: true });
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entries[file.index]!, (error, s) => (error || !s ? reject(error ?? new Error("no stream")) : resolve(s))),
    );
    await pipeline(stream, createWriteStream(target, { flags: "wx", mode: 0o644 }));
  }
}

/** Unpacks a checked HLS zip into storage with its attachment row; answers the playlist's URL, bytes and duration. */
async function keepHls(storage: Storage, file: Received, who: Uploader): Promise<{ url: string; size: number; duration: number }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file.tmpPath);
  } catch {
    throw new ApiError(msg`The file is not a readable zip`);
  }
  const staging = path.join(storage.tempDir, `${randomBytes(12).toString("hex")}.hls`);
  try {
    let entries: yauzl.Entry[];
    try {
      entries = await readEntries(zip);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError(msg`The zip is damaged or holds a path that is not allowed`);
    }
    const plan = planZip(entries, file.size);
    await mkdir(staging, { recursive: true });
    try {
      await unpack(zip, entries, plan, staging);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError(msg`A file of the zip could not be unpacked: the zip is damaged`);
    }
    const duration = await hlsDuration(staging, plan.playlist);
    // The folder moves into place under its lock with its row (the same zip again: the folder
    // already there is kept, the row counts one more upload).
    const row = await storage.keep(file, HLS_TOPIC, { failure: null, mimetype: HLS_MIMETYPE }, who, null, {
      lessonVideo: true,
      folder: { staging, playlist: plan.playlist, bytes: plan.bytes },
    });
    return { url: row.url, size: Number(row.size), duration };
  } finally {
    zip.close();
    await rm(staging, { recursive: true, force: true });
  }
}

export async function lessonVideoRoutes(app: FastifyInstance, storage: Storage): Promise<void> {
  app.post("/admin/course/lesson/upload", { config: { adminRule: "course/lesson/upload" } }, async (req, reply) => {
    const file = await receiveVideo(req, storage.tempDir);
    const who: Uploader = { adminId: req.admin!.id, userId: null };
    let video: UploadedVideo;
    try {
      const ext = extensionOf(file.name);
      if (ext === "zip") {
        video = { name: file.name, type: "hls", ...(await keepHls(storage, file, who)) };
      } else {
        const detected = await fileTypeFromBuffer(file.head).catch(() => undefined);
        const fits = ext === "mp4" ? ["mp4", "m4v", "mov"].includes(detected?.ext ?? "") : detected?.ext === "webm";
        if (!detected || !fits) throw notAVideo();
        const row = await storage.keep(file, "course", { failure: null, detected, suffix: ext, mimetype: ext === "mp4" ? "video/mp4" : "video/webm" }, who, null, { lessonVideo: true });
        video = { name: file.name, url: row.url, type: ext === "mp4" ? "mp4" : "webm", size: Number(row.size), duration: 0 };
      }
    } finally {
      // Before answering: the temp file is gone when the client hears back.
      await rm(file.tmpPath, { force: true });
    }
    req.log.info({ url: video.url, size: video.size, type: video.type }, "lesson video uploaded");
    return reply.success({ video }, msg`Upload successful`);
  });
}
