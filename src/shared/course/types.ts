/**
 * The course wire contract (member side), shared by the server (src/server/modules/course) and
 * the client (src/client/features/course, src/client/features/player). Times are Unix seconds;
 * money is in cents (integers) on the wire, shown as yuan with two decimals; positions and
 * durations are seconds.
 *
 *   GET  /api/course/list?categoryId=&keyword=&page=&limit=  -> CourseList
 *   GET  /api/course/detail?id=                              -> CourseDetail
 *   POST /api/course/enrol {courseId}                        -> {enrolment: Enrolment} (free courses)
 *   POST /api/course/buy {courseId, price}                   -> {enrolment: Enrolment, money: number}
 *        (paid courses; `price` is the price the member was shown, a changed price is refused)
 *   GET  /api/course/my                                      -> MyCourses
 *   GET  /api/course/lesson?id=                              -> LessonDetail
 *   Lesson progress: the `lesson.progress` sync op of API.md through POST /api/exam/sync.
 */

/** A node of the course category tree. */
export interface CourseCategoryNode {
  id: number;
  pid: number;
  title: string;
  courseCount: number;
  children: CourseCategoryNode[];
}

/** A course in lists. */
export interface CourseSummary {
  id: number;
  categoryId: number;
  title: string;
  /** URL of the cover image ('' when none). */
  cover: string;
  summary: string;
  /** Cents; 0 = free. */
  price: number;
  lessonCount: number;
  /** Sum of the lessons' durations, seconds. */
  duration: number;
  /** Whether the logged-in member is enrolled (false when nobody is logged in). */
  enrolled: boolean;
}

export interface CourseList {
  categories: CourseCategoryNode[];
  list: CourseSummary[];
  total: number;
}

/** The member's progress on one lesson. */
export interface LessonProgress {
  /** Seconds into the video. */
  position: number;
  completed: boolean;
  /** Unix seconds of the last progress report; 0 = never watched. */
  lastWatched: number;
}

/** A lesson in a course's lesson list. */
export interface LessonSummary {
  id: number;
  courseId: number;
  title: string;
  /** Seconds. */
  duration: number;
  /** Watchable without enrolling. */
  freePreview: boolean;
  /** Whether the lesson has a video (some lessons are text only). */
  hasVideo: boolean;
  progress: LessonProgress;
}

export interface Enrolment {
  courseId: number;
  /** Unix seconds. */
  enrolledAt: number;
  /** Cents paid (0 for free courses). */
  paid: number;
}

/** `GET /api/course/detail?id=`. */
export interface CourseDetail {
  course: CourseSummary & {
    /** Sanitised rich text (HTML). */
    introduction: string;
    categoryTitle: string;
  };
  lessons: LessonSummary[];
  /** null when not enrolled. */
  enrolment: Enrolment | null;
  /** The lesson to continue with: the last watched unfinished one, else the first unfinished, else the first. */
  continueLessonId: number | null;
}

/** One row of `GET /api/course/my`. */
export interface MyCourse extends CourseSummary {
  completedLessons: number;
  /** 0..100, completed lessons over lessons. */
  percent: number;
  continueLessonId: number | null;
  /** Unix seconds of the member's last progress report in this course (0: none). */
  lastWatched: number;
  enrolledAt: number;
}

export interface MyCourses {
  list: MyCourse[];
}

export interface LessonAttachment {
  name: string;
  url: string;
  /** Bytes. */
  size: number;
}

/** `GET /api/course/lesson?id=`; refused with a clear message unless enrolled or a free preview. */
export interface LessonDetail {
  lesson: LessonSummary & {
    /** Sanitised rich text (HTML). */
    content: string;
    /** '' when the lesson has no video; a /storage/ path or an external http(s) URL. */
    videoUrl: string;
    /** 'mp4' | 'webm' | 'hls' ('' without video). */
    videoType: "" | "mp4" | "webm" | "hls";
    /** Bytes of the video file when the server knows it (0 otherwise): shown on "save for offline". */
    videoSize: number;
    attachments: LessonAttachment[];
  };
  course: { id: number; title: string };
  /** Neighbours in course order (null at the ends). */
  prevLessonId: number | null;
  nextLessonId: number | null;
}

/** A lesson counts as completed once watched to this fraction of its duration. */
export const LESSON_COMPLETE_FRACTION = 0.95;
/** Points awarded once per lesson, the first time it is completed. */
export const LESSON_COMPLETE_POINTS = 5;
/** How often the player reports progress while playing (seconds of playback). */
export const LESSON_PROGRESS_INTERVAL_SECONDS = 10;

/** Whether a position counts as watched to the end. */
export function isLessonComplete(position: number, duration: number): boolean {
  if (!(duration > 0)) return false;
  return position >= duration * LESSON_COMPLETE_FRACTION;
}

/** Cents as yuan text with two decimals ("12.50"). */
export function formatPrice(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
