import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { FormAlert } from "../../ui/FormFooter.tsx";
import { toast } from "../../ui/toast.ts";
import { crudUrl } from "../crud/api.ts";
import type { CrudRow } from "../crud/types.ts";
import { SheetExport, SheetImport, type SheetReport } from "../crud/SheetDialogs.tsx";

/**
 * Members as spreadsheets (`/admin/user/user/template|import|export`): the import dialog
 * (template, file -> dry run counting the members to add, update and leave as they are, listing
 * every bad row -> confirm, all or nothing), the export dialog, and the row action that sends a
 * member a new invitation link (`invite`: by email, or by text message to a mobile when the
 * member has no email and an SMS provider is set; the server says when neither can be used).
 */

interface ImportRow {
  line: number;
  username: string;
  nickname: string;
  action: "add" | "update" | "unchanged";
  password: "set" | "kept" | "invite" | "inviteSms";
}

interface ImportReport extends SheetReport<ImportRow> {
  add: number;
  update: number;
  unchanged: number;
  /** The invitations handed on, and of those the ones only kept in the outbox table (no mail server or SMS provider is set). */
  invited?: number;
  kept?: number;
}

export function MemberImportDialog({ onDone }: { onDone: () => void }) {
  const { t } = useLingui();
  const actionLabel = { add: t`Add`, update: t`Update`, unchanged: t`Unchanged` };
  const passwordLabel = { set: t`Set from the file`, kept: t`Kept`, invite: t`Invitation email`, inviteSms: t`Invitation text message` };
  return (
    <SheetImport<ImportRow, ImportReport>
      rule="user/user"
      extra={{}}
      note={
        <Trans>
          A row whose username is a member&apos;s updates that member (their password only when the row gives one); any other row adds a member, with a first password or an invitation: by email, or by text message to a member with a mobile and no email when an SMS provider is set.
        </Trans>
      }
      confirmLabel={({ add, update }) =>
        add + update > 0 ? (
          <Trans>
            Import: add {add}, update {update}
          </Trans>
        ) : null
      }
      counts={({ add, update, unchanged, errorCount }) => (
        <p data-testid="member-import-counts">
          <Trans>
            To add: {add}; to update: {update}; unchanged: {unchanged}; rows with problems: {errorCount}.
          </Trans>
        </p>
      )}
      columns={[
        { id: "line", header: t`Row`, cell: (r) => r.line },
        { id: "username", header: t`Username`, cell: (r) => r.username },
        { id: "nickname", header: t`Nickname`, cell: (r) => r.nickname },
        { id: "action", header: t`Change`, cell: (r) => actionLabel[r.action] },
        { id: "password", header: t`Password`, cell: (r) => passwordLabel[r.password] },
      ]}
      done={({ imported, invited = 0, kept = 0 }) => {
        const sent = invited - kept;
        return (
          <div role="status" className="space-y-2">
            <p className="font-medium text-green-700 dark:text-green-300">
              <Trans>{imported} members imported; invitations sent: {sent}.</Trans>
            </p>
            {kept > 0 && (
              <p className="text-amber-700 dark:text-amber-300" data-testid="member-import-kept">
                <Plural
                  value={kept}
                  one="# invitation was not sent: no mail server or SMS provider is set, so it was only kept in the outbox table (outbox_message)."
                  other="# invitations were not sent: no mail server or SMS provider is set, so they were only kept in the outbox table (outbox_message)."
                />
              </p>
            )}
            <Button onClick={onDone}>
              <Trans>Close</Trans>
            </Button>
          </div>
        );
      }}
    />
  );
}

export function MemberExportDialog({ onDone }: { onDone: () => void }) {
  return (
    <SheetExport
      rule="user/user"
      params={{}}
      before={
        <p className="text-sm">
          <Trans>Every member you manage, in the import&apos;s layout (passwords are never exported).</Trans>
        </p>
      }
      onDone={onDone}
    />
  );
}

/**
 * Sends the member a new link to set their password (`POST invite {id}`): by email, else by text
 * message to their mobile (the server refuses, saying why, when no SMS provider is set); older
 * links stop working.
 */
export function InviteDialog({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const [error, setError] = useState<string | null>(null);
  const sendIt = useMutation({
    mutationFn: () => request<{ sent: number; kept: number }>({ url: crudUrl("user/user", "invite"), method: "post", data: { id: row.id } }, { showCodeMessage: false }),
    onSuccess: (res) => {
      // Only kept in the outbox table: a notice, not a success (nothing left the server).
      if (res.data?.kept > 0) toast.message(t`No mail server or SMS provider is set: the invitation was not sent but kept in the outbox table (outbox_message)`);
      else toast.success(res.msg || t`The invitation was sent`);
      onDone();
    },
    onError: (e) => setError(serverRefusal(e)?.msg ?? t`The invitation could not be sent: try again`),
  });
  const name = String(row.nickname || row.username || row.id);
  const email = String(row.email ?? "");
  const mobile = String(row.mobile ?? "");
  if (email === "" && mobile === "") {
    return (
      <p role="alert" className="text-sm">
        <Trans>The invitation cannot be delivered: {name} has neither an email nor a mobile. Add one before sending an invitation.</Trans>
      </p>
    );
  }
  return (
    <div className="space-y-4 text-sm">
      <p>
        {email !== "" ? (
          <Trans>
            Email {name} ({email}) a link to set their password? The link works once and expires; links sent before stop working.
          </Trans>
        ) : (
          <Trans>
            Text {name} ({mobile}) a link to set their password? {name} has no email, so it goes by text message through the SMS provider. The link works once and expires; links sent before stop working.
          </Trans>
        )}
      </p>
      <FormAlert text={error} />
      <Button variant="primary" disabled={sendIt.isPending} onClick={() => sendIt.mutate()}>
        <Trans>Send invitation</Trans>
      </Button>
    </div>
  );
}
