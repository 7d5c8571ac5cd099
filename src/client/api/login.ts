import { serverRefusal } from "./errors.ts";
import { request } from "./index.ts";

/**
 * A login form's request (the back office's, a member's): the server's welcome is shown, the
 * loading bar runs, and a refusal is thrown for the form to show by its field.
 */
export async function postLogin<T>(url: string, data: object): Promise<T> {
  return (await request<T>({ url, method: "post", data }, { showSuccessMessage: true, loading: true, showCodeMessage: false })).data;
}

/** Whether a login was refused until a captcha is solved (the refusal's data says so). */
export function asksForCaptcha(error: unknown): boolean {
  return Boolean((serverRefusal(error)?.data as { captcha?: boolean } | null)?.captcha);
}
