#!/usr/bin/env node
// Question import (POST /admin/exam/question/import) of 2,000 and 20,000 questions of every kind
// from an .xlsx made here: file size, dry-run time, import time, and the server process's peak
// memory (VmHWM from /proc, Linux; the peak so far, so the runs go smallest first), and the
// export of the imported bank. Run alone (`node tests/bench/questions-import.mjs`, after a build)
// or as part of `npm run bench`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ExcelJS from "exceljs";

import { memory, startServer as startAny, stop } from "./server.mjs";
const startServer = (dataDir) => startAny(["dist/server/main.js"], dataDir, { LOGIN_RATE_LIMIT: "1000000" });
const SIZES = [2_000, 20_000];

function row(n) {
  const pad = (cells) => [...cells, ...Array.from({ length: 8 - cells.length }, () => "")];
  switch (n % 5) {
    case 0:
      return ["single", `Question ${n}: which is the second option?`, ...pad(["first", "second", "third", "fourth"]), "B", "", `Because ${n}`, 2, 2, "enable"];
    case 1:
      return ["multiple", `Question ${n}: pick A and C`, ...pad(["a", "b", "c", "d"]), "A,C", "", "", 3, 4, "enable"];
    case 2:
      return ["judge", `Question ${n}: is it true?`, ...pad([]), "T", "", "", 1, 1, "enable"];
    case 3:
      return ["fill", `第 ${n} 题：中华人民共和国成立于____年，首都是____`, ...pad([]), "1949|一九四九\n北京|Beijing", "", "", 2, 2, "enable"];
    default:
      return ["short", `Question ${n}: why do seasons change?`, ...pad([]), "tilt\norbit", "The axis is tilted.", "", 4, 10, "enable"];
  }
}

async function sheet(count) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("questions");
  ws.addRow(["Type", "Question", ..."ABCDEFGH".split("").map((k) => `Option ${k}`), "Answer", "Reference", "Analysis", "Difficulty", "Score", "Status"]);
  for (let i = 0; i < count; i++) ws.addRow(row(i));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });

export async function questionsImportBench() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "exam-bench-questions-"));
  try {
    const server = await startServer(dataDir);
    try {
      const post = async (url, body, token) =>
        (await fetch(`${server.url}${url}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { batoken: token } : {}) }, body: JSON.stringify(body) })).json();
      const login = await post("/admin/index/login", { username: "admin", password: "admin123456" });
      if (login.code !== 1) throw new Error(`admin login: ${JSON.stringify(login)}`);
      const token = login.data.userInfo.token;
      const start = memory(server.child.pid);
      console.log(`server at rest: ${fmt(start.now)} MB resident (peak ${fmt(start.peak)} MB)`);
      for (const count of SIZES) {
        const bank = await post("/admin/exam/classify/add", { pid: 0, title: `Bench ${count}` }, token);
        if (bank.code !== 1) throw new Error(JSON.stringify(bank));
        const file = await sheet(count);
        const body = { classify_id: bank.data.id, name: `bench-${count}.xlsx`, data: file.toString("base64") };
        let t0 = performance.now();
        const dry = await post("/admin/exam/question/import", body, token);
        const dryMs = performance.now() - t0;
        if (dry.code !== 1 || dry.data.count !== count) throw new Error(`dry run: ${JSON.stringify(dry).slice(0, 300)}`);
        t0 = performance.now();
        const done = await post("/admin/exam/question/import", { ...body, confirm: true }, token);
        const importMs = performance.now() - t0;
        if (done.code !== 1 || done.data.imported !== count) throw new Error(`import: ${JSON.stringify(done).slice(0, 300)}`);
        t0 = performance.now();
        const exported = await fetch(`${server.url}/admin/exam/question/export?classify_id=${bank.data.id}`, { headers: { batoken: token } });
        // The file downloads (a refusal would come as the JSON envelope).
        if (exported.status !== 200 || (exported.headers.get("content-type") ?? "").includes("json")) throw new Error("export failed");
        await exported.arrayBuffer();
        const exportMs = performance.now() - t0;
        const mem = memory(server.child.pid);
        console.log(
          `${fmt(count).padStart(6)} questions: file ${fmt(file.length / 1024)} kB, dry run ${fmt(dryMs)} ms, import ${fmt(importMs)} ms, export ${fmt(exportMs)} ms; server peak ${fmt(mem.peak)} MB (now ${fmt(mem.now)} MB)`,
        );
      }
    } finally {
      await stop(server.child);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log("# Question import (POST /admin/exam/question/import)");
  await questionsImportBench();
}
