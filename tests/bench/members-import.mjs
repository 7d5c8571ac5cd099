#!/usr/bin/env node
// Member import (POST /admin/user/user/import) of 10,000 members from an .xlsx made here: half
// with a first password (the same for all, as a sheet usually gives), half invited by email,
// each in a company, a duty and two classrooms. Prints the dry run's and the import's times,
// the longest /api/health answer while they ran (the server keeps answering: the file is read on
// its own thread) and the export of them all. Run alone (`node tests/bench/members-import.mjs`,
// after a build) or as part of `npm run bench`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ExcelJS from "exceljs";

import { startServer as startAny, stop } from "./server.mjs";
const startServer = (dataDir) => startAny(["dist/server/main.js"], dataDir, { LOGIN_RATE_LIMIT: "1000000" });
const COUNT = 10_000;

async function sheet(count, org) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("members");
  // The columns' field names (accepted beside the template's words in either language).
  ws.addRow(["username", "nickname", "email", "mobile", "company", "duty", "classrooms", "group", "password", "invite"]);
  for (let i = 0; i < count; i++) {
    const invite = i % 2 === 1;
    ws.addRow([`bench_${i}`, `成员 ${i}`, `bench${i}@example.com`, `139${String(i).padStart(8, "0")}`, org.company, org.duty, `${org.rooms[0]};${org.rooms[1]}`, "", invite ? "" : "first-pass-1", invite ? "yes" : "no"]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });

export async function membersImportBench() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-bench-members-"));
  try {
    const server = await startServer(dataDir);
    try {
      const post = async (url, body, token) =>
        (await fetch(`${server.url}${url}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { batoken: token } : {}) }, body: JSON.stringify(body) })).json();
      const login = await post("/admin/index/login", { username: "admin", password: "admin123456" });
      if (login.code !== 1) throw new Error(`admin login: ${JSON.stringify(login)}`);
      const token = login.data.userInfo.token;
      const add = async (rule, body) => {
        const res = await post(`/admin/${rule}/add`, body, token);
        if (res.code !== 1) throw new Error(`${rule}: ${JSON.stringify(res)}`);
        return res.data.id;
      };
      const company = await add("org/company", { pid: 0, name: "Bench company" });
      await add("org/duty", { name: "Bench duty" });
      await add("org/classroom", { name: "Bench room A", company_id: company });
      await add("org/classroom", { name: "Bench room B", company_id: company });
      const file = await sheet(COUNT, { company: "Bench company", duty: "Bench duty", rooms: ["Bench room A", "Bench room B"] });
      const body = { name: `members-${COUNT}.xlsx`, data: file.toString("base64") };

      // /api/health asked every 50 ms meanwhile: its slowest answer shows whether the server stalled.
      const timed = async (work) => {
        let slowest = 0;
        let running = true;
        const probe = (async () => {
          while (running) {
            const t0 = performance.now();
            await fetch(`${server.url}/api/health`).then((r) => r.arrayBuffer());
            slowest = Math.max(slowest, performance.now() - t0);
            await new Promise((r) => setTimeout(r, 50));
          }
        })();
        const t0 = performance.now();
        const result = await work();
        const ms = performance.now() - t0;
        running = false;
        await probe;
        return { result, ms, slowest };
      };
      const dry = await timed(() => post("/admin/user/user/import", body, token));
      if (dry.result.code !== 1 || dry.result.data.add !== COUNT) throw new Error(`dry run: ${JSON.stringify(dry.result).slice(0, 300)}`);
      const done = await timed(() => post("/admin/user/user/import", { ...body, confirm: true }, token));
      if (done.result.code !== 1 || done.result.data.imported !== COUNT) throw new Error(`import: ${JSON.stringify(done.result).slice(0, 300)}`);
      // The import's figures first: the round trip below may fail on its own.
      console.log(
        `${fmt(COUNT)} members (file ${fmt(file.length / 1024)} kB): dry run ${fmt(dry.ms)} ms (slowest /api/health meanwhile ${fmt(dry.slowest)} ms), ` +
          `import ${fmt(done.ms)} ms with ${fmt(done.result.data.invited)} invitation emails (slowest /api/health ${fmt(done.slowest)} ms)`,
      );
      const exported = await timed(async () => {
        const res = await fetch(`${server.url}/admin/user/user/export?format=xlsx`, { headers: { batoken: token } });
        // The file downloads (a refusal would come as the JSON envelope).
        if (res.status !== 200 || (res.headers.get("content-type") ?? "").includes("json")) throw new Error("export failed");
        return Buffer.from(await res.arrayBuffer());
      });
      const again = await timed(() => post("/admin/user/user/import", { name: "export.xlsx", data: exported.result.toString("base64") }, token));
      if (again.result.code !== 1 || again.result.data.unchanged < COUNT) throw new Error(`round trip: ${JSON.stringify(again.result).slice(0, 300)}`);
      console.log(`export ${fmt(exported.ms)} ms, its dry run ${fmt(again.ms)} ms (${fmt(again.result.data.unchanged)} unchanged)`);
    } finally {
      await stop(server.child);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log("# Member import (POST /admin/user/user/import)");
  await membersImportBench();
}
