import type { BankDownload } from "../../../shared/exam/catalog.ts";
import { request } from "../../api/index.ts";

/**
 * A bank's questions for the device (`GET /api/exam/bank`). Apart from the query fetchers
 * (api.ts) so the practice screen, which reads only the device, does not load TanStack Query.
 */
export async function downloadBank(id: number, { quiet = false }: { quiet?: boolean } = {}): Promise<BankDownload> {
  // `quiet`: the caller shows the server's refusal itself (no toast repeating it).
  return (await request<BankDownload>({ url: "/api/exam/bank", method: "get", params: { id } }, { showErrorMessage: false, showCodeMessage: !quiet })).data;
}
