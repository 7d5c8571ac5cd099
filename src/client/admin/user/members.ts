import { msg } from "@lingui/core/macro";
import { Coins, Download, GraduationCap, MailPlus, ScanFace, Upload, Wallet } from "lucide-react";
import { AVATAR_TOPIC } from "../../../shared/avatar.ts";
import { memberAdd, memberEdit } from "../../../shared/admin/schemas.ts";
import { memberDecl } from "../../../shared/admin/resources/user.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { companyField } from "../org/fields.ts";
import { AdjustMoney, AdjustScore } from "./AdjustDialog.tsx";
import { avatarCell, groupCell, moneyCell } from "./cells.tsx";
import { FacePhotoDialog } from "./FacePhotoDialog.tsx";
import { InviteDialog, MemberExportDialog, MemberImportDialog } from "./MemberSheet.tsx";
import { TranscriptDialog } from "./TranscriptDialog.tsx";
import { GENDER_OPTIONS, STATUS_OPTIONS } from "./options.ts";

/** Members (`user/user`): profile, group, status, password; balance and points adjusted from each row. */
const members: CrudDefinition = {
  ...declaredScreen(memberDecl, {
    avatar: avatarCell,
    group_id: groupCell,
    company_id: (r) => String(r.company_name ?? "–"),
    duty_id: (r) => String(r.duty_name ?? "–"),
    money: moneyCell("money"),
  }),
  form: [
    { field: "username", label: msg`Username`, kind: "text" },
    { field: "nickname", label: msg`Nickname`, kind: "text" },
    // A new member is given a first password, or sent a link to set their own (by email, else text message).
    { field: "invite", viaHook: true, label: msg`Send an invitation instead of a password (by email, or by text message to a member without one)`, kind: "switch", boolean: true, only: "add", initial: false },
    { field: "password", viaHook: true, label: msg`Password`, kind: "password", when: (v) => !v.invite },
    { field: "group_id", label: msg`Group`, kind: "remoteSelect", remote: { path: "user/group", labelField: "name" } },
    companyField(),
    { field: "duty_id", label: msg`Duty`, kind: "remoteSelect", remote: { path: "org/duty", labelField: "name" } },
    { field: "classroom_ids", viaHook: true, label: msg`Classrooms`, kind: "multiSelect", tree: { path: "org/classroom", label: "name" }, initial: [] },
    { field: "email", label: msg`Email`, kind: "text" },
    { field: "mobile", label: msg`Mobile`, kind: "text" },
    { field: "avatar", label: msg`Avatar`, kind: "image", topic: AVATAR_TOPIC },
    { field: "gender", label: msg`Gender`, kind: "radio", options: GENDER_OPTIONS, initial: 0 },
    { field: "birthday", label: msg`Birthday`, kind: "date" },
    { field: "motto", label: msg`Signature`, kind: "textarea" },
    { field: "status", label: msg`Status`, kind: "radio", options: STATUS_OPTIONS, initial: "enable" },
  ],
  schema: memberAdd,
  editSchema: memberEdit.omit({ id: true }),
  rowActions: [
    { key: "money", label: msg`Adjust balance`, icon: Wallet, action: "user/moneyLog/add", component: AdjustMoney },
    { key: "score", label: msg`Adjust points`, icon: Coins, action: "user/scoreLog/add", component: AdjustScore },
    { key: "face", label: msg`Face photo`, icon: ScanFace, action: "face", component: FacePhotoDialog },
    { key: "invite", label: msg`Resend invitation`, icon: MailPlus, action: "invite", component: InviteDialog },
    { key: "transcript", label: msg`Transcript`, icon: GraduationCap, action: "transcript", component: TranscriptDialog, size: "xl" },
  ],
  toolbarActions: [
    { key: "import", label: msg`Import`, icon: Upload, action: "import", size: "lg", component: MemberImportDialog },
    { key: "export", label: msg`Export for import`, icon: Download, action: "export", component: MemberExportDialog },
  ],
};

export default members;
