import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { dbId, dbInt, safeText, withMessage } from "../schema.ts";
import { categoryTree } from "./categoryTree.ts";
import { assignment } from "./org.ts";

/**
 * The courses area of the back office (`course/...`): categories (a tree), courses and their
 * lessons. Shared by the server's resources and the client's forms; each field carries the
 * message shown beside it when refused. Money is in cents, durations in seconds.
 */

/** Highest course price in cents (1,000,000.00). */
export const MAX_COURSE_PRICE = 100_000_000;
/** Most attachments one lesson may carry. */
export const MAX_LESSON_ATTACHMENTS = 20;
/** Longest lesson video (seconds): 24 hours. */
export const MAX_LESSON_DURATION = 86_400;
/** The largest lesson video (or HLS zip) the lesson upload takes: 2 GiB. */
export const MAX_VIDEO_BYTES = 2 * 1024 ** 3;
export const VIDEO_TYPES = ["", "mp4", "webm", "hls"] as const;
export type VideoType = (typeof VIDEO_TYPES)[number];

const status = withMessage(z.enum(["enable", "disable"]).optional().default("enable"), msg`Please choose a status`);
const weigh = withMessage(z.number().int().min(-1_000_000).max(1_000_000).optional().default(0), msg`The weight must be a whole number`);
/** "" (none), a stored file's `/storage/...` path, or an http(s) URL. */
const mediaUrl = (max: number) =>
  safeText(max).refine((url) => url === "" || (/^\/storage\/[A-Za-z0-9_./-]+$/.test(url) && !url.split("/").includes("..")) || /^https?:\/\/[^\s"'<>]+$/i.test(url));
const richText = (max: number) => safeText(max).optional().default("");

/** Course categories (course/category): the tree courses are filed in. */
export const courseCategoryTree = categoryTree({
  rule: "course/category",
  table: "course_category",
  title: msg`Course categories`,
  labels: { title: msg`Name`, title_en: msg`English name`, parent: msg`Parent category`, quickSearch: msg`ID, name` },
});

export const courseCategoryAdd = z.object({
  pid: withMessage(z.preprocess((v) => (v === null ? 0 : v), dbInt(0).optional().default(0)), msg`Please choose the parent category`),
  title: withMessage(safeText(50).trim().min(1), msg`Please enter the category name (at most 50 characters)`),
  title_en: withMessage(safeText(50).trim().optional().default(""), msg`The English name is at most 50 characters`),
  weigh,
  status,
});
export const courseCategoryEdit = courseCategoryAdd.extend({ id: withMessage(dbId, msg`Please choose a row`) });

export const courseAdd = z.object({
  category_id: withMessage(dbId, msg`Please choose the category`),
  title: withMessage(safeText(100).trim().min(1), msg`Please enter the course title (at most 100 characters)`),
  cover: withMessage(mediaUrl(500).optional().default(""), msg`Please upload a cover image`),
  summary: withMessage(safeText(500).optional().default(""), msg`The summary is at most 500 characters`),
  introduction: withMessage(richText(200_000), msg`The introduction is too long`),
  price: withMessage(z.number().int().min(0).max(MAX_COURSE_PRICE).optional().default(0), msg`Enter a price from 0 to 1,000,000.00, with at most 2 decimals`),
  weigh,
  status,
  ...assignment,
});
export const courseEdit = courseAdd.extend({ id: withMessage(dbId, msg`Please choose a row`) });
export type CourseAdd = z.infer<typeof courseAdd>;

/**
 * A lesson's video as the form edits it: where it is, its kind, its bytes, its length and the
 * name it was uploaded under (its stored file is named by its content).
 */
export const lessonVideo = z
  .object({
    url: mediaUrl(500),
    type: z.enum(VIDEO_TYPES),
    size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    duration: z.number().int().min(0).max(MAX_LESSON_DURATION),
    name: safeText(255).optional().default(""),
  })
  .refine((v) => (v.url === "") === (v.type === ""));
export type LessonVideo = z.infer<typeof lessonVideo>;
export const NO_VIDEO: LessonVideo = { url: "", type: "", size: 0, duration: 0, name: "" };

export const lessonAttachment = z.object({
  name: safeText(100).trim().min(1),
  url: mediaUrl(500).refine((u) => u !== ""),
  size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

export const lessonAdd = z.object({
  course_id: withMessage(dbId, msg`Please choose the course`),
  title: withMessage(safeText(100).trim().min(1), msg`Please enter the lesson title (at most 100 characters)`),
  content: withMessage(richText(200_000), msg`The content is too long`),
  video: withMessage(lessonVideo.nullable().optional().default(NO_VIDEO), msg`Please upload an MP4 or WebM video, or an HLS folder as a .zip`),
  attachments: withMessage(z.array(lessonAttachment).max(MAX_LESSON_ATTACHMENTS).nullable().optional().default([]), msg`At most 20 attachments, each with a name`),
  // A switch sends true / false.
  free_preview: withMessage(z.boolean().optional().default(false), msg`Please choose whether this lesson is a free preview`),
  weigh,
  status,
});
export const lessonEdit = lessonAdd.extend({ id: withMessage(dbId, msg`Please choose a row`) });
export type LessonAdd = z.infer<typeof lessonAdd>;

/** What the lesson video upload answers: the video to put in the lesson's form. */
export type UploadedVideo = LessonVideo;
