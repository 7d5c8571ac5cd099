import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { dbId, dbInt, safeText, withMessage } from "../schema.ts";

/**
 * Face rules: when an official exam checks that the person at the device is the
 * member, and what a failed check does. The schedule is a pure function of the rule and the
 * attempt, so the device and the server compute the same moments.
 */

export const FACE_ACTIONS = ["stop", "flag"] as const;
export type FaceAction = (typeof FACE_ACTIONS)[number];

/** `POST /admin/org/faceRule/add` and `edit`. */
const faceRuleBase = z.object({
  name: withMessage(safeText(100).trim().min(1), msg`Please enter the rule's name (at most 100 characters)`),
  before_start: withMessage(z.boolean().optional().default(true), msg`Please choose yes or no`),
  every_minutes: withMessage(dbInt(0, 1440).optional().default(0), msg`Enter minutes from 0 (never) to 1440`),
  random_count: withMessage(dbInt(0, 20).optional().default(0), msg`Enter a count from 0 to 20`),
  threshold: withMessage(
    z
      .number()
      .gt(0)
      .max(1)
      .refine((n) => Math.abs(Math.round(n * 1000) - n * 1000) < 1e-6),
    msg`Enter a similarity above 0 and at most 1, with at most 3 decimals`,
  ),
  liveness: withMessage(z.boolean().optional().default(false), msg`Please choose yes or no`),
  max_failures: withMessage(dbInt(1, 100).optional().default(3), msg`Enter a number of failures from 1 to 100`),
  action: withMessage(z.enum(FACE_ACTIONS).optional().default("flag"), msg`Please choose stop or flag`),
  status: withMessage(z.enum(["enable", "disable"]).optional().default("enable"), msg`Please choose a status`),
});
function checkRule(rule: z.infer<typeof faceRuleBase>, ctx: z.RefinementCtx) {
  if (!rule.before_start && rule.every_minutes === 0 && rule.random_count === 0) ctx.addIssue({ code: "custom", path: ["before_start"], message: "no check" });
}
export const faceRuleAdd = faceRuleBase.superRefine(checkRule);
export const faceRuleEdit = faceRuleBase.extend({ id: withMessage(dbId, msg`Please choose a row`) }).superRefine(checkRule);
export type FaceRuleBody = z.infer<typeof faceRuleAdd>;

/** What the device needs of a room's face rule (the official start answers it). */
export interface FaceRule {
  id: number;
  beforeStart: boolean;
  everyMinutes: number;
  randomCount: number;
  threshold: number;
  liveness: boolean;
  maxFailures: number;
  action: FaceAction;
}

export type FaceCheckKind = "start" | "interval" | "random";
export interface FaceMoment {
  /** ms from the attempt's start. */
  offset: number;
  kind: FaceCheckKind;
}

/** A small deterministic PRNG (mulberry32) seeded from a string: the same attempt draws the same random moments on every device and reload. */
function seeded(seed: string): () => number {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** No check in the last this-many ms of an attempt (a snapshot then could not change anything). */
export const FACE_TAIL_MS = 30_000;

/**
 * The moments (ms after the start, ascending) an attempt of `durationMs` is checked under
 * `rule`: at 0 when `beforeStart`; every `everyMinutes` (not at 0, not in the last
 * FACE_TAIL_MS); `randomCount` moments drawn uniformly from the same span with a PRNG seeded by
 * `seed` (the attempt's uuid). Moments closer than a second to each other merge (the earlier
 * kind wins: start, then interval).
 */
export function faceSchedule(rule: Pick<FaceRule, "beforeStart" | "everyMinutes" | "randomCount">, durationMs: number, seed: string): FaceMoment[] {
  const moments: FaceMoment[] = [];
  if (rule.beforeStart) moments.push({ offset: 0, kind: "start" });
  const end = durationMs - FACE_TAIL_MS;
  if (rule.everyMinutes > 0) {
    const step = rule.everyMinutes * 60_000;
    for (let t = step; t < end; t += step) moments.push({ offset: t, kind: "interval" });
  }
  if (rule.randomCount > 0 && end > 1000) {
    const random = seeded(seed);
    for (let i = 0; i < rule.randomCount; i++) moments.push({ offset: 1000 + Math.floor(random() * (end - 1000)), kind: "random" });
  }
  const rank: Record<FaceCheckKind, number> = { start: 0, interval: 1, random: 2 };
  moments.sort((a, b) => a.offset - b.offset || rank[a.kind] - rank[b.kind]);
  return moments.filter((m, i) => i === 0 || m.offset - moments[i - 1]!.offset >= 1000);
}

/** The id a scheduled check (not the start check) is sent with: one per moment, so it counts once however often it is sent. */
export const scheduledCheckId = (uuid: string, offset: number): string => `${uuid}:${offset}`;

/**
 * How long after its moment a scheduled check may still be missing when the attempt closes
 * before it counts as missed (a snapshot being taken, judged on the device or uploaded when the
 * member submits).
 */
export const FACE_MISSED_GRACE_MS = 60_000;

/**
 * The scheduled checks (the rule's interval and random moments, from `faceSchedule`, never the
 * start check the server's gate enforces) that were due in an attempt planned for `durationMs`
 * that ran `elapsedMs` before it closed: those at least `graceMs` before its end.
 */
export function dueFaceChecks(
  rule: Pick<FaceRule, "beforeStart" | "everyMinutes" | "randomCount">,
  durationMs: number,
  elapsedMs: number,
  seed: string,
  graceMs = FACE_MISSED_GRACE_MS,
): FaceMoment[] {
  return faceSchedule(rule, durationMs, seed).filter((m) => m.kind !== "start" && m.offset + graceMs <= elapsedMs);
}

/** The server's verdicts on one check: `pass` or why not; the camera ones are the device's report of having no snapshot; `missed` a scheduled check that never arrived before the attempt closed (recorded by the server). */
export const FACE_VERDICTS = ["pass", "no_face", "many_faces", "mismatch", "not_live", "no_reference", "camera_refused", "no_camera", "camera_failed", "bad_image", "missed"] as const;
export type FaceVerdict = (typeof FACE_VERDICTS)[number];
export const DEVICE_PROBLEMS = ["camera_refused", "no_camera", "camera_failed"] as const;
export type DeviceProblem = (typeof DEVICE_PROBLEMS)[number];

/** The fields of `POST /api/exam/official/face` besides the image file (multipart fields are text). */
export const faceSnapshotFields = z.object({
  uuid: z.string().length(36),
  checkId: z.string().min(8).max(64),
  kind: z.enum(["start", "interval", "random"]),
  takenAt: z.coerce.number().int().nonnegative(),
  /** What the device itself saw (a hint the server records, never its verdict). */
  deviceVerdict: z.string().max(32).optional(),
  /** No snapshot: why (then no file). */
  problem: z.enum(DEVICE_PROBLEMS).optional(),
});
export type FaceSnapshotFields = z.infer<typeof faceSnapshotFields>;

/** What the server answers a snapshot. */
export interface FaceCheckResult {
  verdict: FaceVerdict;
  similarity: number | null;
  failures: number;
  maxFailures: number;
  /** none | flagged | stopped: the attempt's face outcome after this check. */
  flag: "none" | "flagged" | "stopped" | "reviewed";
}

export const faceReviewBody = z.object({ id: withMessage(dbId, msg`Please choose a row`) });

/** `GET /admin/exam/faceReview/timeline?id=`: an attempt's face checks in time order (times: attempt seconds, check ms). */
export interface FaceTimeline {
  attempt: { id: number; username: string; roomTitle: string; startedAt: number; deadline: number | null; status: string; failures: number; flag: string; threshold: number | null; action: string | null; maxFailures: number | null };
  checks: { id: number; kind: string; takenAt: number; receivedAt: number; verdict: string; deviceVerdict: string | null; similarity: number | null; live: number | null; faces: number | null; ms: number | null; picture: boolean }[];
}

/**
 * The one `@vladmandic/human` configuration of the device's hint and the server's verdict, so the
 * two look at a picture the same way: up to 5 faces detected, a descriptor per face, every other
 * model off; `liveness` only where it is judged (the server). Every snapshot is a new picture:
 * `cacheSensitivity: 0` never reuses an earlier result.
 */
export function faceHumanConfig(paths: { models: string; wasm: string }, options: { liveness: boolean }) {
  return {
    backend: "wasm",
    modelBasePath: paths.models,
    wasmPath: paths.wasm,
    debug: false,
    cacheSensitivity: 0,
    face: {
      enabled: true,
      detector: { maxDetected: 5, rotation: false, minConfidence: 0.5, skipFrames: 0 },
      mesh: { enabled: true },
      iris: { enabled: false },
      attention: { enabled: false },
      description: { enabled: true, skipFrames: 0 },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: options.liveness ? { enabled: true, skipFrames: 0 } : { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    filter: { enabled: false },
  } as const;
}
