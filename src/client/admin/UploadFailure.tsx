import { serverRefusal } from "../api/index.ts";

/**
 * Why a chosen file went nowhere when the server did not say (it could not be read, or was too
 * large to send): a refusal from the server is already shown by the request layer.
 */
export function UploadFailure({ error }: { error: Error | null }) {
  if (!error || serverRefusal(error)) return null;
  return (
    <p role="alert" className="text-sm text-red-700 dark:text-red-400">
      {error.message}
    </p>
  );
}
