import type { ResourceDef } from "../resource.ts";
import { moneyLogResource, scoreLogResource } from "./accountLog.ts";
import { adminResource } from "./admin.ts";
import { adminLogResource } from "./adminLog.ts";
import { examClassifyResource, questionResource, questionTypeResource } from "./exam.ts";
import { attachmentResource } from "./attachment.ts";
import { certificateResource, certificateTemplateResource } from "./certificates.ts";
import { courseCategoryResource, courseResource } from "./course.ts";
import { faceReviewResource, faceRuleResource } from "./face.ts";
import { lessonResource } from "./lesson.ts";
import { adminGroupResource } from "./group.ts";
import { memberResource } from "./member.ts";
import { memberGroupResource } from "./memberGroup.ts";
import { memberRuleResource } from "./memberRule.ts";
import { noticeLogResource } from "./noticeLog.ts";
import { lateAnswerResource, markingResource } from "./marking.ts";
import { paperResource, paperRowResource } from "./papers.ts";
import { roomResource } from "./rooms.ts";
import { classroomResource, companyResource, dutyResource, headTeacherResource } from "./org.ts";
import { adminRuleResource } from "./rule.ts";
import { dataRecycleLogResource, dataRecycleResource, sensitiveDataLogResource, sensitiveDataResource } from "./security.ts";

/** Every back-office resource the CRUD engine mounts (a new screen's server side: one line here). */
export const resources: readonly ResourceDef[] = [
  adminResource,
  adminGroupResource,
  adminRuleResource,
  adminLogResource,
  companyResource,
  dutyResource,
  classroomResource,
  headTeacherResource,
  memberResource,
  memberGroupResource,
  memberRuleResource,
  moneyLogResource,
  scoreLogResource,
  noticeLogResource,
  dataRecycleResource,
  dataRecycleLogResource,
  sensitiveDataResource,
  sensitiveDataLogResource,
  attachmentResource,
  courseCategoryResource,
  courseResource,
  lessonResource,
  paperResource,
  paperRowResource,
  roomResource,
  markingResource,
  lateAnswerResource,
  faceRuleResource,
  faceReviewResource,
  certificateTemplateResource,
  certificateResource,
  examClassifyResource,
  questionTypeResource,
  questionResource,
];
