import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import path from "node:path";
import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import { msg } from "@lingui/core/macro";
import { ApiCode } from "../../../shared/constants.ts";
import { hashToken } from "../../auth/tokens.ts";
import type { Queryable } from "../../db/index.ts";
import { memberToken } from "../../plugins/auth.ts";
import { envelope } from "../../plugins/envelope.ts";
import { appMetaOnce, lessonsAccess, lessonsWithMedia, liveMemberSessions, memberMayWatch, sessionOfAccessToken, type LessonMediaRow } from "./repository.ts";

/**
 * Course media under `/storage/` are served only to whoever may watch their lesson (the rule of
 * `/api/course/lesson`, checked again on every request):
 * - which files belong to a lesson: its `video_url`, its attachments' URLs and, for an HLS
 *   lesson, every media file (playlists, segments, init sections, keys, subtitles) under the
 *   playlist's folder — HLS files live in a folder of their own;
 * - open to anyone: files of an enabled lesson that is a free preview or belongs to a free
 *   course (price 0), of a course open to all (modules/org/visibility.ts);
 * - otherwise only members the course is open to, when the lesson is a free preview, the course
 *   free, or they are enrolled in it.
 *   Anonymous requests are answered 401, members who may not watch 403 (envelope, no-store).
 *
 * A `<video>` element and hls.js cannot send the token header, so the member is known from an
 * HttpOnly, SameSite=Strict cookie scoped to `/storage/` (never in a URL). `/api/course/lesson`
 * sets it for a logged-in member, and `/api/common/refreshToken` sets it again with every new
 * member token: `<memberId>.<expiry>.<HMAC>`, the HMAC keyed by a secret kept in `app_meta` and
 * bound to the member, the expiry and the login session (`token.session_id`, shared by a login's
 * access token and every refresh token and access token rotated from it). It counts only while
 * that session lives — an unexpired access token or an unexchanged refresh token of it — so a
 * token refresh mid-playback does not cut the video off, while logout, a password change, a
 * revoked or stolen (reused refresh token) session and its expiry end it; and for at most
 * MEDIA_COOKIE_TTL: media answers renew it past half-life. The session id never leaves the
 * server (the cookie carries only its HMAC).
 * Saving a video for offline is an ordinary same-origin fetch that carries the cookie, so the
 * saved copy keeps its plain URL as cache key.
 */

export const MEDIA_COOKIE = "examhub_media";
const MEDIA_COOKIE_PATH = "/storage/";
/** Seconds a media cookie counts for (renewed by media answers while the session lasts). */
export const MEDIA_COOKIE_TTL = 12 * 3600;
const SECRET_KEY = "media_cookie_secret";
const COOKIE_VALUE = /^(\d{1,10})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;
/** How long the list of lesson files is reused before it is read again. */
const INDEX_TTL_MS = 5_000;
/** Files under an HLS lesson's folder that belong to it. */
const HLS_FILES = new Set(["m3u8", "m4s", "ts", "mp4", "m4v", "m4a", "aac", "mp3", "ac3", "ec3", "vtt", "webvtt", "key", "cmfv", "cmfa", "cmft"]);

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The HMAC key of media cookies: made once per database (the first process to need it wins). */
const secrets = new WeakMap<Queryable, Promise<Buffer>>();
function mediaSecret(db: Queryable): Promise<Buffer> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = (async () => {
      return Buffer.from(await appMetaOnce(db, SECRET_KEY, randomBytes(32).toString("hex")), "hex");
    })();
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

function signature(secret: Buffer, memberId: number, expires: number, sessionId: string): Buffer {
  return createHmac("sha256", secret).update(`media-v2.${memberId}.${expires}.${sessionId}`).digest();
}

function setMediaCookie(req: FastifyRequest, reply: FastifyReply, value: string, maxAge: number): void {
  reply.header(
    "set-cookie",
    serializeCookie(MEDIA_COOKIE, value, { path: MEDIA_COOKIE_PATH, httpOnly: true, sameSite: "strict", secure: req.protocol === "https", maxAge }),
  );
}

async function issue(db: Queryable, req: FastifyRequest, reply: FastifyReply, memberId: number, sessionId: string): Promise<void> {
  const expires = nowSeconds() + MEDIA_COOKIE_TTL;
  const sig = signature(await mediaSecret(db), memberId, expires, sessionId).toString("base64url");
  setMediaCookie(req, reply, `${memberId}.${expires}.${sig}`, MEDIA_COOKIE_TTL);
}

/** Gives the member who opened a lesson (with the access token of this request) the media cookie of that token's session. */
export async function issueMediaCookie(db: Queryable, req: FastifyRequest, reply: FastifyReply, memberId: number): Promise<void> {
  const token = memberToken(req);
  if (!token) return;
  const sessionId = await sessionOfAccessToken(db, hashToken(token), memberId);
  if (sessionId !== undefined) await issue(db, req, reply, memberId, sessionId);
}

/**
 * Gives the media cookie of a session whose tokens were just refreshed (`/api/common/refreshToken`):
 * media keep playing with the new token, whatever the old one's fate.
 */
export async function issueSessionMediaCookie(db: Queryable, req: FastifyRequest, reply: FastifyReply, memberId: number, sessionId: string): Promise<void> {
  await issue(db, req, reply, memberId, sessionId);
}

interface MediaMember {
  memberId: number;
  expires: number;
  sessionId: string;
}

/** The member behind a valid media cookie (bound to one of the member's live sessions), or null. */
async function mediaMember(db: Queryable, req: FastifyRequest): Promise<MediaMember | null> {
  const header = req.headers.cookie;
  if (typeof header !== "string" || header.length > 8192) return null;
  const value = parseCookies(header)[MEDIA_COOKIE];
  const match = value ? COOKIE_VALUE.exec(value) : null;
  if (!match) return null;
  const memberId = Number(match[1]);
  const expires = Number(match[2]);
  const now = nowSeconds();
  if (memberId > 2_147_483_647 || expires <= now || expires > now + MEDIA_COOKIE_TTL + 60) return null;
  const given = Buffer.from(match[3]!, "base64url");
  const sessions = await liveMemberSessions(db, memberId, now);
  const secret = await mediaSecret(db);
  for (const sessionId of sessions) {
    const expected = signature(secret, memberId, expires, sessionId);
    if (expected.length === given.length && timingSafeEqual(expected, given)) return { memberId, expires, sessionId };
  }
  return null;
}

/**
 * The storage-relative path ("/course/demo/x.mp4") that a `/storage/...` URL names, decoded
 * and normalised the way @fastify/static resolves a request; null when it is none.
 */
export function storagePathOf(url: string): string | null {
  const end = url.search(/[?#]/);
  const pathname = end < 0 ? url : url.slice(0, end);
  if (!pathname.startsWith("/storage/")) return null;
  let decoded: string;
  try {
    decoded = decodeURI(pathname.slice("/storage".length).replace(/%(?:23|3f)/giu, decodeURIComponent));
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const normal = path.posix.normalize(decoded);
  return normal.startsWith("/") && !normal.split("/").includes("..") ? normal : null;
}

function extensionOf(file: string): string {
  const base = file.slice(file.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

interface MediaIndex {
  /** Storage path -> lessons using it (video or attachment). */
  files: Map<string, number[]>;
  /** HLS lessons' folders ("/course/demo/hls/"). */
  hlsFolders: { folder: string; lessonId: number }[];
}

function buildIndex(rows: LessonMediaRow[]): MediaIndex {
  const files = new Map<string, number[]>();
  const hlsFolders: MediaIndex["hlsFolders"] = [];
  const add = (url: unknown, lessonId: number): string | null => {
    const file = typeof url === "string" ? storagePathOf(url.trim()) : null;
    if (file) files.set(file, [...(files.get(file) ?? []), lessonId]);
    return file;
  };
  for (const row of rows) {
    const video = add(row.video_url, row.id);
    if (video && row.video_type === "hls") {
      const folder = path.posix.dirname(video);
      if (folder !== "/") hlsFolders.push({ folder: `${folder}/`, lessonId: row.id });
    }
    if (Array.isArray(row.attachments)) {
      for (const item of row.attachments as unknown[]) if (item && typeof item === "object") add((item as { url?: unknown }).url, row.id);
    }
  }
  return { files, hlsFolders };
}

/** Every lesson's files (disabled lessons too: their media stay closed), re-read after INDEX_TTL_MS. */
const indexes = new WeakMap<Queryable, { at: number; index: Promise<MediaIndex> }>();
function mediaIndex(db: Queryable): Promise<MediaIndex> {
  const cached = indexes.get(db);
  if (cached && Date.now() - cached.at < INDEX_TTL_MS) return cached.index;
  const index = lessonsWithMedia(db).then(buildIndex);
  index.catch(() => indexes.delete(db));
  indexes.set(db, { at: Date.now(), index });
  return index;
}

/** Forget the cached list of lesson files (after lessons change; tests). */
export function forgetCourseMedia(db: Queryable): void {
  indexes.delete(db);
}

/** The lessons whose media include this storage path. */
export async function lessonsUsing(db: Queryable, storagePath: string): Promise<number[]> {
  const index = await mediaIndex(db);
  const ids = new Set(index.files.get(storagePath) ?? []);
  if (HLS_FILES.has(extensionOf(storagePath))) {
    for (const { folder, lessonId } of index.hlsFolders) if (storagePath.startsWith(folder)) ids.add(lessonId);
  }
  return [...ids];
}

export type MediaDecision =
  /** Not course media: served as any upload. */
  | { kind: "other" }
  /** Media of a free preview or a free course. */
  | { kind: "open" }
  /** Media for this enrolled member only. */
  | { kind: "member"; member: MediaMember }
  | { kind: "login" }
  | { kind: "denied" };

/** Who may have the file at this storage path (see the top of this file). */
export async function courseMediaDecision(db: Queryable, req: FastifyRequest, storagePath: string): Promise<MediaDecision> {
  const ids = await lessonsUsing(db, storagePath);
  if (ids.length === 0) return { kind: "other" };
  // Open to anyone: a free preview or a free course that is open to all (assigned to nobody).
  const rows = await lessonsAccess(db, ids);
  if (rows.some((r) => r.open && (r.free_preview || Number(r.price) === 0))) return { kind: "open" };
  const member = await mediaMember(db, req);
  if (!member) return { kind: "login" };
  if (rows.length > 0) {
    // A member: a course assigned to them, free (preview or price 0) or one they are enrolled in.
    if (await memberMayWatch(db, member.memberId, ids)) return { kind: "member", member };
  }
  return { kind: "denied" };
}

interface Checked {
  /** The storage path this request was checked for. */
  path: string;
  kind: "other" | "open" | "member";
}

/**
 * The `/storage/*` guard for the static file plugin: `onRequest` decides (and answers 401/403),
 * `allowedPath` lets @fastify/static serve only the very path that was decided (any other
 * spelling it arrives at fails closed as 404), `cacheControl` tells what the answer may be
 * cached as.
 */
export function courseMediaGuard(db: Queryable) {
  // Keyed by the raw request: @fastify/static hands `setHeaders` the raw response only.
  const checked = new WeakMap<IncomingMessage, Checked>();
  return {
    onRequest: async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const storagePath = storagePathOf(req.raw.url ?? "");
      if (storagePath === null) return;
      const decision = await courseMediaDecision(db, req, storagePath);
      if (decision.kind === "login" || decision.kind === "denied") {
        const login = decision.kind === "login";
        reply
          .code(login ? 401 : 403)
          .header("cache-control", "no-store")
          .send(
            envelope(
              ApiCode.FAIL,
              req.t(login ? msg`Please log in and open the lesson to watch its video` : msg`Please enrol in this course to watch its videos`),
              null,
            ),
          );
        return reply;
      }
      if (decision.kind === "member" && decision.member.expires - nowSeconds() < MEDIA_COOKIE_TTL / 2) {
        await issue(db, req, reply, decision.member.memberId, decision.member.sessionId);
      }
      checked.set(req.raw, { path: storagePath, kind: decision.kind });
    },
    allowedPath: (pathname: string, _root: string | undefined, req: FastifyRequest): boolean => checked.get(req.raw)?.path === pathname,
    cacheControl: (req: IncomingMessage): string => {
      const kind = checked.get(req)?.kind;
      if (kind === "member") return "private, no-cache";
      // Course media may change hands (a course made paid): shared caches keep them an hour.
      if (kind === "open") return "public, max-age=3600";
      return "public, max-age=31536000, immutable";
    },
  };
}
