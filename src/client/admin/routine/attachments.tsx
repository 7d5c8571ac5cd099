import { attachmentDecl } from "../../../shared/admin/resources/routine.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { MimeCell, NameCell, PreviewCell, SizeCell, UploadedCell, UploaderCell, UsesCell } from "./attachmentCells.tsx";

/**
 * Attachments (`routine/attachment`): every upload, read-only; deleting a row removes its file
 * only when nothing else uses it (the server decides, after the delete). The cells keep to fixed
 * widths so that the row's actions stay on a 1440 px screen beside the side menu.
 */
const attachments: CrudDefinition = {
  ...declaredScreen(attachmentDecl, {
    url: (row) => <PreviewCell row={row} />,
    name: (row) => <NameCell row={row} />,
    mimetype: (row) => <MimeCell row={row} />,
    size: (row) => <SizeCell row={row} />,
    admin_username: (row) => <UploaderCell row={row} />,
    uses: (row) => <UsesCell row={row} />,
    last_upload_time: (row) => <UploadedCell row={row} />,
  }),
  buttons: ["refresh", "delete", "columns", "search"],
  defaultOrder: "last_upload_time,desc",
};

export default attachments;
