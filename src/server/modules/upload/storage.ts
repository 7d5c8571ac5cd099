import { readFile, readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { msg } from "@lingui/core/macro";
import type { AppConfig } from "../../config.ts";
import type { Database, Queryable } from "../../db/index.ts";
import { ApiError } from "../../errors.ts";
import { getCountSetting } from "../../settings.ts";
import { DEMO_MEDIA_URL, DEMO_PAID_MEDIA_URL } from "../course/media.ts";
import { imageSize, type ImageSize, type ReceivedFile, type Verdict } from "./sniff.ts";
import {
  advisoryXactLock,
  attachmentExists,
  deleteLessonVideoRows,
  fileUseRows,
  lessonVideoUploadedSince,
  lockMember,
  memberHoldsUpload,
  memberUploadFigures,
  recordMemberUpload,
  upsertAttachment,
  type AttachmentRow,
} from "./repository.ts";
import { fileStore, keyOf, type FileStore } from "./store.ts";
import type { FileUse } from "../../../shared/upload.ts";

/**
 * Where uploads are kept: one file per (sha1, topic) at <topic>/<yyyymmdd>/<sha1>.<ext> (a
 * lesson's HLS video: one folder per zip, course/hls/<sha1>/, topic `course/hls`) in the file
 * store (store.ts: the folder DATA_DIR/storage, or an S3 bucket), its row in `attachment`, and
 * the member limits (uploads a minute, storage quota).
 */

const STALE_TEMP_MS = 86_400_000;

export type { AttachmentRow } from "./repository.ts";
export type { FileUse };

function dayFolder(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}`;
}

export interface Uploader {
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

export async function uploadLimits(db: Queryable): Promise<UploadLimits> {
  const [perMinute, quota] = await Promise.all([getCountSetting(db, "upload_rate_per_minute"), getCountSetting(db, "upload_quota_mib")]);
  return { perMinute, quotaBytes: quota * MIB };
}

export async function memberUploadUse(db: Queryable, userId: number, now: number): Promise<UploadUse> {
  const figures = await memberUploadFigures(db, userId, now - RATE_WINDOW_MS);
  return { recent: figures.recent, used: Number(figures.used) };
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
export function limitRefusal(use: UploadUse, limits: UploadLimits, adding: number | "unknown"): ApiError | null {
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

/** The topic of lesson videos sent as an HLS zip: not a valid upload form topic, so no other upload shares its rows. */
export const HLS_TOPIC = "course/hls";
const HLS_FOLDER = /^\/storage\/course\/hls\/[0-9a-f]{40}\//;

/** The folder (`/storage/course/hls/<sha1>/`) an HLS playlist URL stands for; null for a single file. */
export function hlsFolderOf(url: string): string | null {
  return HLS_FOLDER.exec(url)?.[0] ?? null;
}

/** The demo course media (src/server/demo, copied at start): never removed. */
export const isDemoMedia = (url: string): boolean => url.startsWith(`${DEMO_MEDIA_URL}/`) || url.startsWith(`${DEMO_PAID_MEDIA_URL}/`);

/**
 * Serialises, per stored file (an HLS video: per folder), placing it (an upload) and removing it
 * (Storage.removeUnused): held until the transaction ends.
 */
export async function lockStoredFile(tx: Queryable, url: string): Promise<void> {
  await advisoryXactLock(tx, `storage:${hlsFolderOf(url) ?? url}`);
}

/**
 * The uses of each `/storage/...` URL (rich text counts when it contains the URL). An HLS
 * playlist's URL stands for its whole folder: any URL under the folder counts.
 */
export async function fileUses(db: Queryable, urls: readonly string[]): Promise<Map<string, FileUse>> {
  if (urls.length === 0) return new Map();
  const distinct = [...new Set(urls)];
  const rows = await fileUseRows(db, distinct, distinct.map(hlsFolderOf));
  return new Map(rows.map(({ url, ...use }) => [url, use]));
}

const used = (use: FileUse | undefined, except?: keyof FileUse): boolean => !use || Object.entries(use).some(([where, n]) => where !== except && n > 0);

interface StoredKey {
  key: string;
  folder: boolean;
}

/** Where a URL's upload is in the store: its file, or for an HLS playlist its whole folder. */
function storedKey(url: string): StoredKey {
  const folder = hlsFolderOf(url);
  return folder ? { key: keyOf(folder.slice(0, -1)), folder: true } : { key: keyOf(url), folder: false };
}

/** A lesson video sent as an HLS zip: unpacked into `staging`, kept as one folder. */
export interface StoredFolder {
  staging: string;
  /** The playlist's path inside the folder. */
  playlist: string;
  /** Unpacked bytes. */
  bytes: number;
}

export interface KeepOptions {
  /** An upload of a lesson video: its row goes with the video once no lesson uses it (removeUnused). */
  lessonVideo?: boolean;
  /** An HLS folder instead of the received file (topic HLS_TOPIC). */
  folder?: StoredFolder;
}

/** Uploaded files in the file store, their rows in `attachment`. */
export class Storage {
  readonly store: FileStore;

  constructor(
    config: AppConfig,
    private readonly db: Database,
  ) {
    this.store = fileStore(config);
  }

  get tempDir(): string {
    return this.store.tempDir;
  }

  /**
   * Records the upload and moves the received file (or `options.folder`) into place, in one
   * transaction: a new attachment row, or the existing row's `quote` + 1 and `last_upload_time`
   * (the row lock orders concurrent uploads of one content), under the file's lock. A row any
   * upload other than a lesson video's made is not `lesson_video` (still wanted as an upload).
   * A member's upload first locks the member row,
   * so the member's uploads take turns: the rate and the quota are checked against what is
   * committed, and a refused upload leaves no row and no file. A file this upload put in place
   * is removed again when the transaction fails after it.
   */
  async keep(file: ReceivedFile & { tmpPath: string }, topic: string, verdict: Verdict, who: Uploader, limits: UploadLimits | null, options: KeepOptions = {}): Promise<AttachmentRow> {
    const { folder } = options;
    const existing = await attachmentExists(this.db, file.sha1, topic);
    const image = !folder && !existing && verdict.detected ? await this.dimensions(file, verdict.detected.ext) : undefined;
    const url = folder ? `/storage/${topic}/${file.sha1}/${folder.playlist}` : `/storage/${topic}/${dayFolder(new Date())}/${file.sha1}${verdict.suffix ? `.${verdict.suffix}` : ""}`;
    const size = folder ? folder.bytes : file.size;

    return this.db.transaction(async (tx) => {
      const now = Date.now();
      if (who.userId !== null && limits) {
        await lockMember(tx, who.userId);
        const held = await memberHoldsUpload(tx, who.userId, file.sha1, topic);
        const refusal = limitRefusal(await memberUploadUse(tx, who.userId, now), limits, held ? 0 : file.size);
        if (refusal) throw refusal;
      }
      const seconds = Math.floor(now / 1000);
      const row = await upsertAttachment(tx, {
        topic,
        adminId: who.adminId,
        userId: who.userId,
        url,
        width: image?.width ?? null,
        height: image?.height ?? null,
        name: file.name,
        size,
        mimetype: verdict.mimetype,
        sha1: file.sha1,
        at: seconds,
        lessonVideo: options.lessonVideo === true,
        storage: this.store.kind,
      });
      // removeUnused removes a file nothing uses under this lock.
      await lockStoredFile(tx, row.url);
      const target = storedKey(row.url);
      const placed = folder ? await this.place(folder.staging, target, folder.playlist) : await this.place(file.tmpPath, target);
      try {
        if (who.userId !== null) {
          await recordMemberUpload(tx, who.userId, row.id, row.size, seconds, now, now - EVENT_KEEP_MS);
        }
      } catch (error) {
        // Nobody else can see the new row before this transaction ends: its file goes with it.
        if (placed && row.inserted) await this.store.remove(target.key, target.folder);
        throw error;
      }
      const { inserted: _inserted, ...attachment } = row;
      return attachment;
    });
  }

  /**
   * Removes the stored file of `url` (an HLS playlist: its whole folder) when nothing uses it
   * any more (no attachment row, avatar, course, lesson, question or recycle-bin record), under
   * the file's lock: an upload of the same content at the same moment either finds the file
   * gone and puts it back, or comes first and keeps it. With `lessonVideo` (a lesson that had
   * the video since `since`, epoch seconds, let go of it: deleted, or given another one) the
   * video's own `lesson_video` rows go too when nothing but attachment rows uses it; a row
   * another upload made is still wanted and keeps the file, and so does a video uploaded again
   * after `since` (for a lesson whose form is not saved yet). Demo media and URLs outside
   * /storage/ are never touched. True when it removed the file.
   */
  async removeUnused(url: string, options: { lessonVideo?: { since: number } } = {}): Promise<boolean> {
    if (!url.startsWith("/storage/") || isDemoMedia(url)) return false;
    const folder = hlsFolderOf(url);
    return this.db.transaction(async (tx) => {
      await lockStoredFile(tx, url);
      if (options.lessonVideo) {
        if (used((await fileUses(tx, [url])).get(url), "attachment")) return false;
        if (await lessonVideoUploadedSince(tx, url, folder, options.lessonVideo.since)) return false;
        await deleteLessonVideoRows(tx, url, folder);
      }
      if (used((await fileUses(tx, [url])).get(url))) return false;
      // Last, still under the lock: only a failing commit could leave rows (restored by the
      // rollback) without the file, and a repeat upload puts it back.
      const stored = storedKey(url);
      await this.store.remove(stored.key, stored.folder);
      return true;
    });
  }

  /** Puts `from` in place unless the store already holds the content (then `from` is removed); true when it put it. */
  private async place(from: string, to: StoredKey, marker?: string): Promise<boolean> {
    if (await this.store.has(to.key, marker)) {
      await rm(from, { recursive: true, force: true });
      return false;
    }
    if (marker === undefined) await this.store.putFile(from, to.key);
    else await this.store.putFolder(from, to.key, marker);
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

