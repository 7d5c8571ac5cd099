import { msg } from "@lingui/core/macro";
import { Ban, Download } from "lucide-react";
import { certificateDecl } from "../../../shared/admin/resources/certificates.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { CertificateDownload, CertificateRevoke } from "./CertificateDialogs.tsx";

/**
 * Issued certificates (exam/certificate): searched by number, member, room or course (a company
 * admin sees their company's members'); each downloaded as its PDF or revoked with a reason.
 */
const certificates: CrudDefinition = {
  ...declaredScreen(certificateDecl, {
    room_title: (r) => String(r.room_title || "–"),
    course_title: (r) => String(r.course_title || "–"),
    score: (r) => (r.score === null || r.score === undefined ? "–" : String(r.score)),
  }),
  buttons: ["refresh", "columns", "search"],
  rowActions: [
    { key: "download", label: msg`Download PDF`, icon: Download, action: "index", component: CertificateDownload },
    { key: "revoke", label: msg`Revoke`, icon: Ban, action: "revoke", component: CertificateRevoke },
  ],
};

export default certificates;
