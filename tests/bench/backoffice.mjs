#!/usr/bin/env node
// The back office at scale (issue 42 "What staff feel", issue 41's report): 200,000 questions in
// 20 banks, 100,000 members in a company of 10 sub-companies (2,000 of them in a classroom), a room
// with 20,000 official attempts of a 20-question paper (snapshots and page leaves as the app keeps
// them), a course of 10 lessons 30,000 members studied. Seeded straight into the migrated embedded
// database with generate_series (seconds), then timed through HTTP as the admin:
// - each list and search (questions: page 1, a search, a bank, a sort; members: page 1, a name, a
//   company): BACKOFFICE_REQUESTS (100) sequential requests each, p50 / p99, goal p99 < 100 ms;
// - the room's results (attempts, item analysis, score chart: one request), goal < 2 s;
// - the progress report of the company, of the classroom and of the course, goal ~1 s;
// - exports (list exports, the sheets, the room's results, the progress report): time, bytes and
//   the server's peak resident memory during each (VmHWM, reset before each through
//   /proc/<pid>/clear_refs), a small and a large one side by side: streamed means the peak does not
//   grow with the rows.
// Run alone (`node tests/bench/backoffice.mjs`, after a build) or as part of `npm run bench`.
// BACKOFFICE_ONLY=lists,results,reports,exports runs only those parts; BACKOFFICE_DATA_DIR=<dir>
// keeps the seeded DATA_DIR there and uses it again next time (to compare builds on the same data);
// BACKOFFICE_SERVER=<path of main.js> runs another build; BACKOFFICE_EXPORTS=<words> runs only the
// exports whose label has one of these words (comma-separated, e.g. `sheet`).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { memory, openDataDir, startServer as startAny, stop } from "./server.mjs";

// BACKOFFICE_SERVER=<main.js>: another build (an A/B of two builds on copies of one seeded DATA_DIR).
const startServer = (dataDir) => startAny([process.env.BACKOFFICE_SERVER ?? "dist/server/main.js"], dataDir, { LOGIN_RATE_LIMIT: "1000000" });
const QUESTIONS = 200_000;
const BANKS = 20;
const MEMBERS = 100_000;
const SUB_COMPANIES = 10;
const CLASSROOM = 2_000;
const ATTEMPTS = 20_000;
const OPEN_ATTEMPTS = 200;
const PAPER_QUESTIONS = 20;
const STUDENTS = 30_000;
const LESSONS = 10;
const REQUESTS = Number(process.env.BACKOFFICE_REQUESTS ?? 100);
const HEAVY_RUNS = Number(process.env.BACKOFFICE_HEAVY_RUNS ?? 5);
const ONLY = new Set((process.env.BACKOFFICE_ONLY ?? "lists,results,reports,exports").split(","));
const EXPORTS = process.env.BACKOFFICE_EXPORTS?.split(",").filter(Boolean) ?? [];

const fmt = (n) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The volumes, one statement per table. `run(sql, params)` answers `{ rows }`. */
export async function seedBackoffice(run) {
  const one = async (text, params) => (await run(text, params)).rows[0];
  const now = Math.floor(Date.now() / 1000);

  // 20 banks of 10,000 questions of every kind, stems of a real question's length.
  const banks = (
    await run(
      `insert into exam_classify (pid, title, title_en, kind, weigh)
       select 0, '压测题库 ' || b, 'Bench bank ' || b, 'practice', 0 from generate_series(1, ${BANKS}) b returning id`,
    )
  ).rows.map((r) => r.id);
  await run(
    `insert into exam_question (classify_id, type, stem, options, answer, analysis, difficulty, score, weigh, create_time, update_time)
     select ($1::int[])[1 + (g - 1) % ${BANKS}],
            (array['single', 'single', 'single', 'multiple', 'judge'])[1 + g % 5],
            '第 ' || g || ' 题：下列关于安全生产的说法中，哪一项是正确的？请结合第 ' || (g % 97) || ' 条规定作答。',
            case when g % 5 = 4 then '[]'::jsonb else '[{"key":"A","text":"选项甲：一段与真实选项长度相仿的文字"},{"key":"B","text":"选项乙：一段与真实选项长度相仿的文字"},{"key":"C","text":"选项丙"},{"key":"D","text":"选项丁"}]'::jsonb end,
            case when g % 5 = 3 then '["A","B"]'::jsonb when g % 5 = 4 then '"T"'::jsonb else '"B"'::jsonb end,
            '解析：第 ' || g || ' 题选 B。', 1 + g % 5, 2, 0, ${now} - g, ${now} - g
     from generate_series(1, ${QUESTIONS}) g`,
    [banks],
  );

  // A company of 10 sub-companies; members spread over them (up to 100,000 members in all).
  const company = (await one("insert into company (pid, name) values (0, '压测集团') returning id")).id;
  const subs = (await run(`insert into company (pid, name) select $1, '压测分公司 ' || s from generate_series(1, ${SUB_COMPANIES}) s returning id`, [company])).rows.map((r) => r.id);
  const existing = Number((await one("select count(*)::int as n from member")).n);
  await run(
    `insert into member (username, nickname, email, mobile, password_hash, company_id, create_time, join_time, update_time)
     select 'staff' || g, '员工' || g, 'staff' || g || '@example.com', '138' || lpad(g::text, 8, '0'), 'x', ($1::int[])[1 + g % ${SUB_COMPANIES}], t, t, t
     from generate_series(1, ${MEMBERS - existing}) g, lateral (select ${now} - g * 300 as t) s`,
    [subs],
  );
  // The bench's members in order: the first 20,000 sat the room, the first 30,000 studied the course.
  const bench = `(select id, row_number() over (order by id) as g from member where username like 'staff%' and company_id is not null)`;

  const classroom = (await one("insert into classroom (name, company_id, start_time, end_time) values ('压测班级', $1, $2, $3) returning id", [company, now - 30 * 86_400, now - 86_400])).id;
  // Every fiftieth member: a classroom mixing those who sat, studied, both and neither.
  await run(`insert into classroom_member (classroom_id, user_id) select $1, m.id from ${bench} m where m.g % 50 = 0 limit ${CLASSROOM}`, [classroom]);

  // A paper of 20 questions of bank 1 (5 points each), a room its 20,000 members sat.
  const paperQuestions = (await run(`select id from exam_question where classify_id = $1 and type = 'single' order by id limit ${PAPER_QUESTIONS}`, [banks[0]])).rows.map((r) => r.id);
  const paper = (await one("insert into exam_paper (title, total_score, pass_score, duration) values ('压测试卷', 100, 60, 3600) returning id")).id;
  await run("insert into exam_paper_row (paper_id, kind, question_id, score, weigh) select $1, 'fixed', q, 5, 0 from unnest($2::int[]) q", [paper, paperQuestions]);
  const room = (
    await one("insert into exam_room (paper_id, title, start_time, end_time, duration, attempts_allowed, pass_score, company_id) values ($1, '压测考场', $2, $3, 3600, 1, 60, $4) returning id", [
      paper,
      now - 7 * 86_400,
      now + 7 * 86_400,
      company,
    ])
  ).id;
  const drawn = JSON.stringify(paperQuestions.map((id) => ({ id, score: 5 })));
  // Answers: right when ((g * 7 + n * 13) mod 10) < 6 + g mod 4 (scores spread over the chart); the last 200 still open.
  await run(
    `insert into exam_attempt (uuid, user_id, kind, paper_id, room_id, questions, answers, started_at, submitted_at, deadline, status, score, passed)
     select gen_random_uuid()::text, m.id, 'official', $1, $2, $3::jsonb, x.answers, t, case when open then null else t + 1200 + m.g % 1800 end, t + 3600,
            case when open then 'open' else 'submitted' end, case when open then null else x.score end, case when open then null else x.score >= 60 end
     from ${bench} m
     cross join lateral (select ${now} - 5 * 86_400 + m.g * 10 as t, m.g > ${ATTEMPTS - OPEN_ATTEMPTS} as open) s
     cross join lateral (select jsonb_object_agg(q.id::text, case when ((m.g * 7 + q.n * 13) % 10) < 6 + m.g % 4 then 'B' else 'A' end) as answers,
                                5 * count(*) filter (where ((m.g * 7 + q.n * 13) % 10) < 6 + m.g % 4) as score
                         from unnest($4::int[]) with ordinality q(id, n)) x
     where m.g <= ${ATTEMPTS}`,
    [paper, room, drawn, paperQuestions],
  );
  await run(
    `insert into exam_attempt_snapshot (attempt_id, paper, questions)
     select a.id, '{"totalScore":100,"passScore":60,"partialCredit":false}'::jsonb, s.questions from exam_attempt a,
       (select jsonb_agg(jsonb_build_object('id', q.id, 'classify_id', q.classify_id, 'type', q.type, 'stem', q.stem, 'options', q.options, 'answer', q.answer,
          'analysis', q.analysis, 'difficulty', q.difficulty, 'version', q.version, 'score', 5) order by u.n) as questions
        from unnest($2::int[]) with ordinality u(id, n) join exam_question q on q.id = u.id) s
     where a.room_id = $1`,
    [room, paperQuestions],
  );
  // One attempt in ten left the page twice.
  await run(
    `insert into exam_attempt_leave (attempt_id, left_at, back_at, received_at)
     select a.id, a.started_at * 1000 + k * 60000, a.started_at * 1000 + k * 60000 + 5000, a.started_at * 1000 + k * 60000 + 6000
     from exam_attempt a, generate_series(1, 2) k where a.room_id = $1 and a.id % 10 = 0`,
    [room],
  );
  // A second room of the company nobody has sat yet.
  const emptyRoom = (
    await one("insert into exam_room (paper_id, title, start_time, end_time, duration, attempts_allowed, company_id) values ($1, '压测考场（未开考）', $2, $3, 3600, 1, $4) returning id", [
      paper,
      now,
      now + 14 * 86_400,
      company,
    ])
  ).id;

  // A course of 10 lessons: member g studied g mod 11 of them (all 10: completed).
  const category = (await one("insert into course_category (pid, title) values (0, '压测课程分类') returning id")).id;
  const course = (await one("insert into course (category_id, title, status) values ($1, '压测课程', 'enable') returning id", [category])).id;
  const lessons = (await run(`insert into lesson (course_id, title, status, weigh) select $1, '第 ' || l || ' 课', 'enable', 100 - l from generate_series(1, ${LESSONS}) l returning id`, [course])).rows.map((r) => r.id);
  await run(
    `insert into lesson_progress (user_id, lesson_id, position, completed, completed_at, last_watched, at, op_id)
     select m.id, ($1::int[])[l], 600, true, (${now} - m.g) * 1000, ${now} - m.g, (${now} - m.g) * 1000, 'bench-' || m.id || '-' || l
     from ${bench} m, generate_series(1, ${LESSONS}) l where m.g <= ${STUDENTS} and l <= m.g % 11`,
    [lessons],
  );
  await run(
    `insert into org_access (room_id, course_id, company_id, classroom_id) values
       ($1, null, $3, null), ($4, null, $3, null), (null, $2, $3, null), ($1, null, null, $5), (null, $2, null, $5)`,
    [room, course, company, emptyRoom, classroom],
  );
  await run("analyze");
  return { banks, company, subs, classroom, room, course };
}

async function login(url) {
  const res = await fetch(`${url}/admin/index/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: "admin123456" }) });
  const body = await res.json();
  if (body.code !== 1) throw new Error(`admin login: ${JSON.stringify(body)}`);
  return body.data.userInfo.token;
}

async function getJson(url, token) {
  const res = await fetch(url, { headers: { batoken: token } });
  const body = await res.json();
  if (body.code !== 1) throw new Error(`${url}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.data;
}

/** `n` sequential requests: p50, p99 and the last answer (`between`, untimed, runs before each). */
async function timed(n, ...args) {
  const [between, fn] = args.length === 2 ? args : [null, args[0]];
  const ms = [];
  let last;
  for (let i = 0; i < n; i++) {
    await between?.();
    const t0 = performance.now();
    last = await fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { p50: pct(ms, 50), p99: pct(ms, 99), max: ms.at(-1), last };
}

/** Forgets the process's peak resident memory (Linux: 5 into clear_refs), so the next VmHWM is this request's peak. */
function resetPeak(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    // Not Linux, or not allowed: the peak is then the process's whole life.
  }
}

/**
 * A file download, read to its end: time, bytes, and the server's resident memory before and at its
 * peak. A file must come as a download, not in a JSON answer (base64 in the envelope, as the sheets'
 * `export` answered before they were streamed: that is `inJson`, reported, not refused, so an older
 * build can be measured with this bench).
 */
async function download(server, url, token) {
  const before = memory(server.child.pid).now;
  resetPeak(server.child.pid);
  const t0 = performance.now();
  const res = await fetch(url, { headers: { batoken: token } });
  const type = res.headers.get("content-type") ?? "";
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.length;
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${type}`);
  const after = memory(server.child.pid);
  return { ms, bytes, before, peak: after.peak, inJson: type.includes("json") };
}

const line = (label, figure, goal) => console.log(`${label.padEnd(44)} ${figure}  [goal: ${goal}]`);

export async function backofficeBench() {
  const kept = process.env.BACKOFFICE_DATA_DIR;
  const dataDir = kept ?? fs.mkdtempSync(path.join(os.tmpdir(), "exam-bench-backoffice-"));
  const idsFile = path.join(dataDir, "backoffice-ids.json");
  try {
    let ids;
    if (kept && fs.existsSync(idsFile)) {
      ids = JSON.parse(fs.readFileSync(idsFile, "utf8"));
      console.log(`PGlite: the volumes seeded before in ${dataDir}`);
    } else {
      fs.mkdirSync(dataDir, { recursive: true });
      // First start migrates and seeds the demo; then the volumes go in.
      await stop((await startServer(dataDir)).child);
      const db = await openDataDir(dataDir);
      const t0 = performance.now();
      ids = await seedBackoffice((text, params) => db.query(text, params));
      await db.close();
      fs.writeFileSync(idsFile, JSON.stringify(ids));
      console.log(
        `PGlite: ${fmt(QUESTIONS)} questions, ${fmt(MEMBERS)} members, a room of ${fmt(ATTEMPTS)} attempts, ${fmt(STUDENTS)} members' course progress seeded in ${fmt((performance.now() - t0) / 1000)} s`,
      );
    }
    console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} (${os.cpus().length} cores)`);
    const server = await startServer(dataDir);
    try {
      const token = await login(server.url);
      const u = (p) => `${server.url}${p}`;
      const rss = memory(server.child.pid);
      console.log(`server at rest: ${fmt(rss.now)} MB resident`);

      if (ONLY.has("lists")) {
        const q = "/admin/exam/question/index?page=1&limit=10";
        const m = "/admin/user/user/index?page=1&limit=10";
        for (const [label, path] of [
          ["questions: page 1", q],
          ["questions: search '第 123456 题'", `${q}&quickSearch=${encodeURIComponent("第 123456 题")}`],
          ["questions: bank filter", `${q}&search[0][field]=classify_id&search[0][operator]=eq&search[0][val]=${ids.banks[7]}`],
          ["questions: sorted by difficulty", `${q}&order=difficulty,desc`],
          ["questions: bank + sort by update time", `${q}&order=update_time,desc&search[0][field]=classify_id&search[0][val]=${ids.banks[3]}`],
          ["members: page 1", m],
          ["members: search by name '员工4242'", `${m}&quickSearch=${encodeURIComponent("员工4242")}`],
          ["members: company filter", `${m}&search[0][field]=company_id&search[0][operator]=eq&search[0][val]=${ids.subs[4]}`],
        ]) {
          // After each list request, `/api/health` (one database round trip, nothing else): its p99
          // is the machine's spells at the time; a list's p99 near it is the load, not the list.
          const health = [];
          const r = await timed(REQUESTS, async () => {
            const t0 = performance.now();
            await getJson(u("/api/health"), token);
            health.push(performance.now() - t0);
          }, () => getJson(u(path), token));
          health.sort((a, b) => a - b);
          const beside = `health beside it p50 ${fmt(pct(health, 50))} / p99 ${fmt(pct(health, 99))} ms`;
          line(label, `p50 ${fmt(r.p50)} ms, p99 ${fmt(r.p99)} ms (${REQUESTS} req, total ${fmt(r.last.total)}; ${beside})`, "p99 < 100 ms");
        }
      }

      if (ONLY.has("results")) {
        const r = await timed(HEAVY_RUNS, () => getJson(u(`/admin/exam/room/results?id=${ids.room}`), token));
        const d = r.last;
        line(
          "room results + item analysis + score chart",
          `p50 ${fmt(r.p50)} ms, max ${fmt(r.max)} ms (${HEAVY_RUNS} runs; ${fmt(d.attempts.length)} attempts, ${d.items.length} items, ${d.distribution.length} bands)`,
          "< 2 s",
        );
      }

      if (ONLY.has("reports")) {
        const p = "/admin/reports/progress/index?limit=20";
        for (const [label, path] of [
          ["progress: company (room, 100,000 members)", `${p}&group=company&id=${ids.company}&target=room-${ids.room}`],
          ["progress: company, course", `${p}&group=company&id=${ids.company}&target=course-${ids.course}`],
          ["progress: company, page 200 of not passed", `${p}&group=company&id=${ids.company}&target=room-${ids.room}&status=not_started&page=200`],
          ["progress: classroom (2,000 members)", `${p}&group=classroom&id=${ids.classroom}`],
          ["progress: classroom, course", `${p}&group=classroom&id=${ids.classroom}&target=course-${ids.course}`],
        ]) {
          const r = await timed(HEAVY_RUNS, () => getJson(u(path), token));
          line(label, `p50 ${fmt(r.p50)} ms, max ${fmt(r.max)} ms (${HEAVY_RUNS} runs, ${fmt(r.last.total)} rows)`, "a few hundred ms to ~1 s");
        }
      }

      if (ONLY.has("exports")) {
        const oneBank = `search[0][field]=classify_id&search[0][operator]=eq&search[0][val]=${ids.banks[0]}`;
        const tenBanks = `search[0][field]=classify_id&search[0][operator]=IN&search[0][val]=${ids.banks.slice(0, 10).join(",")}`;
        const oneCompany = `search[0][field]=company_id&search[0][operator]=eq&search[0][val]=${ids.subs[0]}`;
        for (const [label, path] of [
          ["export questions csv (10,000)", `/admin/exam/question/exportList?format=csv&${oneBank}`],
          ["export questions csv (100,000)", `/admin/exam/question/exportList?format=csv&${tenBanks}`],
          ["export questions xlsx (100,000)", `/admin/exam/question/exportList?format=xlsx&${tenBanks}`],
          ["export members csv (10,000)", `/admin/user/user/exportList?format=csv&${oneCompany}`],
          ["export members csv (100,000)", "/admin/user/user/exportList?format=csv"],
          ["export members xlsx (100,000)", "/admin/user/user/exportList?format=xlsx"],
          ["room results xlsx (20,000)", `/admin/exam/room/export?id=${ids.room}`],
          ["progress export csv (classroom)", `/admin/reports/progress/export?format=csv&group=classroom&id=${ids.classroom}&target=room-${ids.room}`],
          ["progress export csv (company, 100,000)", `/admin/reports/progress/export?format=csv&group=company&id=${ids.company}&target=room-${ids.room}`],
          ["question sheet of a bank xlsx (10,000)", `/admin/exam/question/export?format=xlsx&classify_id=${ids.banks[0]}`],
          ["question sheet of a bank csv (10,000)", `/admin/exam/question/export?format=csv&classify_id=${ids.banks[0]}`],
          ["member sheet xlsx (100,000)", "/admin/user/user/export?format=xlsx"],
          ["member sheet csv (100,000)", "/admin/user/user/export?format=csv"],
        ]) {
          if (EXPORTS.length > 0 && !EXPORTS.some((word) => label.includes(word))) continue;
          const r = await download(server, u(path), token);
          const how = r.inJson ? "; base64 in JSON, not streamed" : "";
          line(label, `${fmt(r.ms)} ms, ${fmt(r.bytes / 1024)} KiB; server RSS ${fmt(r.before)} MB before, peak ${fmt(r.peak)} MB${how}`, "streamed: peak flat over rows");
        }
      }
    } finally {
      await stop(server.child);
    }
  } finally {
    if (!kept) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log("# The back office at scale (tests/bench/backoffice.mjs)");
  await backofficeBench();
}
