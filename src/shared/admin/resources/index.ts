import type { ResourceDecl } from "../fields.ts";
import { adminDecl, adminGroupDecl, adminLogDecl, adminRuleDecl } from "./auth.ts";
import { certificateDecl, certificateTemplateDecl } from "./certificates.ts";
import { courseDecl, lessonDecl } from "./courses.ts";
import { lateAnswerDecl, markingDecl, paperDecl, paperRowDecl, questionDecl, questionTypeDecl, roomDecl } from "./exam.ts";
import { faceReviewDecl, faceRuleDecl } from "./face.ts";
import { classroomDecl, companyDecl, dutyDecl, headTeacherDecl } from "./org.ts";
import { attachmentDecl } from "./routine.ts";
import { dataRecycleDecl, dataRecycleLogDecl, sensitiveDataDecl, sensitiveDataLogDecl } from "./security.ts";
import { memberDecl, memberGroupDecl, memberRuleDecl, moneyLogDecl, noticeLogDecl, scoreLogDecl } from "./user.ts";

/**
 * Every resource declared once here: its server resource and its screen are both made of it
 * (tests/client/admin-declarations.test.ts holds both to it). The category trees are declared by
 * categoryTree.ts. A picker (`picker`) is a server resource only: other screens' selects read it.
 */
export const declarations: readonly ResourceDecl[] = [courseDecl, lessonDecl, paperDecl, paperRowDecl, roomDecl, markingDecl, lateAnswerDecl, faceRuleDecl, faceReviewDecl, certificateTemplateDecl, certificateDecl, companyDecl, dutyDecl, classroomDecl, attachmentDecl, adminLogDecl, questionTypeDecl, questionDecl,
  adminDecl, adminGroupDecl, adminRuleDecl, memberDecl, memberGroupDecl, memberRuleDecl, moneyLogDecl, scoreLogDecl, noticeLogDecl,
  dataRecycleDecl, sensitiveDataDecl, dataRecycleLogDecl, sensitiveDataLogDecl, headTeacherDecl];
