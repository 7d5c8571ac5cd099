import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { dbId, safeText, withMessage } from "../schema.ts";
import { MAX_IDS } from "./crud.ts";

/**
 * Data security's rules and actions (the recycle bin's restore, the sensitive data log's
 * rollback), shared by the server's resources and the back-office forms.
 */

const status = withMessage(z.enum(["enable", "disable"]).optional().default("enable"), msg`Please choose a status`);
const name = withMessage(safeText(50).trim().min(1), msg`Please enter the rule name`);
/** A back-office resource by its rule path, e.g. "user/user". */
const controller = withMessage(z.string().regex(/^[A-Za-z0-9_]{1,64}(\/[A-Za-z0-9_]{1,64}){1,3}$/), msg`Please choose the data`);
const rowId = withMessage(dbId, msg`Please choose a row`);

export const dataRecycleAdd = z.object({ name, controller, status });
export const dataRecycleEdit = dataRecycleAdd.extend({ id: rowId });
export type DataRecycleAdd = z.infer<typeof dataRecycleAdd>;

export const sensitiveDataAdd = z.object({
  name,
  controller,
  data_fields: withMessage(z.array(z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/)).min(1).max(50), msg`Please choose the fields to watch`),
  status,
});
export const sensitiveDataEdit = sensitiveDataAdd.extend({ id: rowId });
export type SensitiveDataAdd = z.infer<typeof sensitiveDataAdd>;

/** `POST restore` / `POST rollback`: the records, all or nothing. */
export const recordIds = z.object({
  ids: withMessage(z.array(dbId).min(1).max(MAX_IDS), msg`Please choose the records`),
});

/** What `GET .../resources` answers: the resources a rule may name, with the fields an edit form shows. */
export interface WatchableResource {
  controller: string;
  title: string;
  table: string;
  fields: string[];
  deletable: boolean;
  editable: boolean;
}
