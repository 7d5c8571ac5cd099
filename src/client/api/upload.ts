import { request } from "./index.ts";

/**
 * Sends a form that carries a file (an avatar, a form field's file, a lesson's video) and answers
 * the envelope's data: no timeout, however long the file takes; the share sent so far, as a
 * percent, to `onProgress`; and not cancelled as a duplicate by another upload sent beside it.
 */
export async function sendUpload<T>(url: string, form: FormData, onProgress: (percent: number) => void, signal?: AbortSignal): Promise<T> {
  const res = await request<T>(
    {
      url,
      method: "post",
      data: form,
      timeout: 0,
      signal,
      onUploadProgress: (e) => onProgress(e.total ? Math.min(100, Math.round((e.loaded * 100) / e.total)) : 0),
    },
    { cancelDuplicateRequest: false },
  );
  return res.data;
}
