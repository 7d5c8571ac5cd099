import { msg } from "@lingui/core/macro";
import type { CrudDefinition } from "../crud/types.ts";
import { NameCell, PreviewCell, SizeCell, UploaderCell, UsesCell } from "./attachmentCells.tsx";

/**
 * Attachments (`routine/attachment`): every upload, read-only; deleting a row removes its file
 * only when nothing else uses it (the server decides, after the delete).
 */
const attachments: CrudDefinition = {
  path: "routine/attachment",
  title: msg`Attachments`,
  quickSearch: msg`Name, type, topic`,
  buttons: ["refresh", "delete", "columns", "search"],
  defaultOrder: "last_upload_time,desc",
  columns: [
    { field: "id", label: msg`ID`, render: "number", sortable: true, hidden: true },
    { field: "url", label: msg`Preview`, cell: (row) => <PreviewCell row={row} /> },
    { field: "name", label: msg`Name`, sortable: true, search: "text", cell: (row) => <NameCell row={row} /> },
    { field: "size", label: msg`Size`, sortable: true, search: "number", cell: (row) => <SizeCell row={row} /> },
    { field: "mimetype", label: msg`Type`, sortable: true, search: "text" },
    { field: "admin_username", label: msg`Uploaded by`, cell: (row) => <UploaderCell row={row} /> },
    { field: "topic", label: msg`Topic`, search: "text" },
    { field: "quote", label: msg`Uploads`, render: "number", sortable: true },
    { field: "uses", viaHook: true, label: msg`Used by`, cell: (row) => <UsesCell row={row} /> },
    { field: "last_upload_time", label: msg`Last uploaded`, render: "datetime", sortable: true, search: "datetime" },
    { field: "create_time", label: msg`Created`, render: "datetime", sortable: true, search: "datetime", hidden: true },
  ],
};

export default attachments;
