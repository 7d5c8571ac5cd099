import type { ResourceDecl } from "../fields.ts";
import { adminLogDecl } from "./auth.ts";
import { courseDecl, lessonDecl } from "./courses.ts";
import { lateAnswerDecl, markingDecl, paperDecl, paperRowDecl, questionTypeDecl, roomDecl } from "./exam.ts";
import { faceReviewDecl, faceRuleDecl } from "./face.ts";
import { classroomDecl, companyDecl, dutyDecl } from "./org.ts";
import { attachmentDecl } from "./routine.ts";

/**
 * Every resource declared once here: its server resource and its screen are both made of it
 * (tests/client/admin-declarations.test.ts holds both to it). The category trees are declared by
 * categoryTree.ts.
 */
export const declarations: readonly ResourceDecl[] = [courseDecl, lessonDecl, paperDecl, paperRowDecl, roomDecl, markingDecl, lateAnswerDecl, faceRuleDecl, faceReviewDecl, companyDecl, dutyDecl, classroomDecl, attachmentDecl, adminLogDecl, questionTypeDecl];
