import { useState } from "react";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { request, serverRefusal } from "../../api/index.ts";
import { Button } from "../../ui/Button.tsx";
import { crudUrl } from "../crud/api.ts";
import type { CrudRow } from "../crud/types.ts";

/** Largest photo sent (the server's limit). */
const MAX_BYTES = 2 * 1024 * 1024;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(file);
  });
}

/**
 * Staff upload a member's reference photo for face checks (`POST /admin/user/user/face`): one
 * face, checked and described on the server; it replaces the member's earlier photo.
 */
export function FacePhotoDialog({ row, onDone }: { row: CrudRow; onDone: () => void }) {
  const { t } = useLingui();
  const [image, setImage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => request({ url: crudUrl("user/user", "face"), method: "post", data: { id: row.id, image }, timeout: 60_000 }, { showCodeMessage: false, showSuccessMessage: true }),
    onSuccess: () => onDone(),
    onError: (e) => setError(serverRefusal(e)?.msg ?? t`The photo could not be saved: try again`),
  });
  const name = String(row.nickname || row.username || row.id);
  return (
    <div className="space-y-4 text-sm">
      <p>
        <Trans>Reference photo of {name}: one face, facing the camera. It replaces an earlier one.</Trans>
      </p>
      <input
        type="file"
        accept="image/jpeg,image/png,image/webp"
        aria-label={t`Photo`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          setError(null);
          setImage(null);
          if (!file) return;
          if (file.size > MAX_BYTES) return setError(t`The photo is too large (at most 2 MB)`);
          void readAsDataUrl(file).then(setImage, () => setError(t`The photo could not be read`));
        }}
      />
      {image && <img src={image} alt={t`The chosen photo`} className="max-h-48 rounded" />}
      {error && <p role="alert" className="text-red-700 dark:text-red-300">{error}</p>}
      <Button variant="primary" disabled={!image || save.isPending} onClick={() => save.mutate()}>
        <Trans>Save photo</Trans>
      </Button>
    </div>
  );
}
