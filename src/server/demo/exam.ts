import type { Queryable } from "../db/database.ts";
import { insertBankRow, insertPaper, insertPaperRows, insertQuestions, insertRoom, moveRoomPaper, roomExists } from "./repository.ts";

/**
 * Demo exam content: three practice banks (two in Chinese, one in English) with 150 questions
 * of every type and a fixed and a drawn mock paper (part "exam"); an exam-only bank with its own
 * questions and an official exam room open now that draws from it (part "examOfficial"), so the
 * practice banks stay practisable while the official exam's answers stay on the server.
 * Generated from small fact tables with a fixed seed, so every demo database is the same.
 */
interface Q {
  type: "single" | "multiple" | "judge" | "fill" | "short";
  stem: string;
  options?: string[];
  answer: unknown;
  analysis: string;
  score: number;
  difficulty?: number;
}

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const KEYS = ["A", "B", "C", "D"];

function choice(rand: () => number, correct: string, wrong: string[]): { options: string[]; key: string } {
  const all = [correct, ...wrong.slice(0, 3)];
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return { options: all, key: KEYS[all.indexOf(correct)]! };
}

/**
 * `count` questions from `make`, each with a stem of its own: random numbers repeat (two
 * "22 + 5 = ?" in one bank), and a member practising the bank would meet the same question twice.
 * `make` is called again for a stem already there.
 */
function distinct(count: number, make: () => Q): Q[] {
  const out: Q[] = [];
  const stems = new Set<string>();
  while (out.length < count) {
    const q = make();
    if (stems.has(q.stem)) continue;
    stems.add(q.stem);
    out.push(q);
  }
  return out;
}

function mathBank(): Q[] {
  const rand = rng(7);
  const out: Q[] = distinct(25, () => {
    const a = 3 + Math.floor(rand() * 40);
    const b = 2 + Math.floor(rand() * 20);
    const c = choice(rand, String(a + b), [String(a + b + 1), String(a + b - 2), String(a + b + 10)]);
    return { type: "single", stem: `${a} + ${b} = ?`, options: c.options, answer: c.key, analysis: `${a} 加 ${b} 等于 ${a + b}。`, score: 2 };
  });
  for (let i = 0; i < 10; i++) {
    const base = 2 + i;
    const nums = [base * 2, base * 2 + 1, base * 4, base * 2 + 3];
    const answer = nums.map((n, k) => (n % 2 === 0 ? KEYS[k]! : null)).filter((k): k is string => k !== null);
    out.push({ type: "multiple", stem: "下列哪些数是偶数？", options: nums.map(String), answer, analysis: "能被 2 整除的数是偶数。", score: 4, difficulty: 2 });
  }
  const primes = new Set([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47]);
  out.push(
    ...distinct(15, () => {
      const n = 2 + Math.floor(rand() * 48);
      return { type: "judge", stem: `${n} 是质数。`, answer: primes.has(n) ? "T" : "F", analysis: primes.has(n) ? `${n} 只能被 1 和它本身整除。` : `${n} 还有其他因数。`, score: 1 };
    }),
    ...distinct(15, () => {
      const a = 2 + Math.floor(rand() * 12);
      const b = 2 + Math.floor(rand() * 12);
      return { type: "fill", stem: `${a} × ${b} = ____`, answer: [String(a * b)], analysis: `${a} 乘以 ${b} 等于 ${a * b}。`, score: 2 };
    }),
  );
  out.push({
    type: "short",
    stem: "简述加法交换律。",
    answer: { keywords: ["交换", "和不变"], reference: "两个数相加，交换加数的位置，和不变。" },
    analysis: "a + b = b + a。",
    score: 10,
    difficulty: 3,
  });
  return out; // 66
}

const CAPITALS: [string, string][] = [
  ["河北省", "石家庄"], ["山西省", "太原"], ["辽宁省", "沈阳"], ["吉林省", "长春"], ["黑龙江省", "哈尔滨"],
  ["江苏省", "南京"], ["浙江省", "杭州"], ["安徽省", "合肥"], ["福建省", "福州"], ["江西省", "南昌"],
  ["山东省", "济南"], ["河南省", "郑州"], ["湖北省", "武汉"], ["湖南省", "长沙"], ["广东省", "广州"],
  ["海南省", "海口"], ["四川省", "成都"], ["贵州省", "贵阳"], ["云南省", "昆明"], ["陕西省", "西安"],
];

function knowledgeBank(): Q[] {
  const rand = rng(11);
  const out: Q[] = [];
  CAPITALS.forEach(([province, city], i) => {
    const others = CAPITALS.filter((_, j) => j !== i).map(([, c]) => c);
    const wrong = [others[(i * 3) % others.length]!, others[(i * 5 + 1) % others.length]!, others[(i * 7 + 2) % others.length]!];
    const c = choice(rand, city, [...new Set(wrong)].concat(["北京", "上海", "天津"]).filter((w) => w !== city));
    out.push({ type: "single", stem: `${province}的省会是哪座城市？`, options: c.options, answer: c.key, analysis: `${province}的省会是${city}。`, score: 2 });
  });
  CAPITALS.forEach(([province, city], i) => {
    const other = CAPITALS[(i + 5) % CAPITALS.length]![1];
    const right = i % 2 === 0;
    out.push({ type: "judge", stem: `${province}的省会是${right ? city : other}。`, answer: right ? "T" : "F", analysis: `${province}的省会是${city}。`, score: 1 });
  });
  const facts: [string, string, string][] = [
    ["中华人民共和国成立于____年。", "1949", "1949 年 10 月 1 日。"],
    ["长江是中国最长的河流，全长约____千米。", "6300|6397", "长江全长约 6300 千米。"],
    ["中国的首都是____。", "北京", "北京是中国的首都。"],
    ["“四大发明”包括造纸术、印刷术、火药和____。", "指南针", "四大发明：造纸术、印刷术、火药、指南针。"],
    ["珠穆朗玛峰位于中国与____的边境。", "尼泊尔", "珠峰位于中尼边境。"],
  ];
  for (const [stem, answer, analysis] of facts) out.push({ type: "fill", stem, answer: [answer], analysis, score: 2 });
  out.push({
    type: "multiple",
    stem: "下列哪些城市是直辖市？",
    options: ["北京", "上海", "南京", "重庆"],
    answer: ["A", "B", "D"],
    analysis: "中国的直辖市有北京、天津、上海、重庆。",
    score: 4,
    difficulty: 2,
  });
  return out; // 46
}

const WORDS: [string, string][] = [
  ["apple", "苹果"], ["book", "书"], ["cat", "猫"], ["dog", "狗"], ["river", "河流"], ["mountain", "山"],
  ["teacher", "老师"], ["window", "窗户"], ["bread", "面包"], ["water", "水"], ["friend", "朋友"], ["school", "学校"],
  ["flower", "花"], ["train", "火车"], ["moon", "月亮"], ["sun", "太阳"], ["city", "城市"], ["music", "音乐"],
  ["chair", "椅子"], ["rain", "雨"],
];

function englishBank(): Q[] {
  const rand = rng(23);
  const out: Q[] = [];
  WORDS.forEach(([en, zh], i) => {
    const wrong = [WORDS[(i + 3) % WORDS.length]![1], WORDS[(i + 7) % WORDS.length]![1], WORDS[(i + 11) % WORDS.length]![1]];
    const c = choice(rand, zh, wrong);
    out.push({ type: "single", stem: `What does "${en}" mean in Chinese?`, options: c.options, answer: c.key, analysis: `"${en}" means ${zh}.`, score: 2 });
  });
  WORDS.slice(0, 12).forEach(([en, zh]) => {
    out.push({ type: "fill", stem: `Write the English word for ${zh}: ____`, answer: [en], analysis: `${zh} is "${en}".`, score: 2 });
  });
  const verbs: [string, string, boolean][] = [
    ["go", "went", true], ["eat", "eated", false], ["see", "saw", true], ["run", "runned", false], ["take", "took", true], ["write", "writed", false],
  ];
  for (const [base, past, right] of verbs) {
    out.push({ type: "judge", stem: `The past tense of "${base}" is "${past}".`, answer: right ? "T" : "F", analysis: right ? "Correct." : `It is irregular.`, score: 1 });
  }
  out.push({
    type: "multiple",
    stem: "Which of these are fruits?",
    options: ["apple", "chair", "banana", "orange"],
    answer: ["A", "C", "D"],
    analysis: "Apples, bananas and oranges are fruits.",
    score: 4,
  });
  out.push({
    type: "short",
    stem: "Describe your school in one or two sentences.",
    answer: { keywords: ["school", "teacher"], reference: "My school is big; my teachers are kind." },
    analysis: "Use simple present tense.",
    score: 10,
    difficulty: 3,
  });
  return out; // 40
}

/** Questions for the official exam only: never in a practice bank. */
function officialBank(): Q[] {
  const rand = rng(31);
  const singles = distinct(15, () => {
    const a = 30 + Math.floor(rand() * 60);
    const b = 2 + Math.floor(rand() * 25);
    const c = choice(rand, String(a - b), [String(a - b + 1), String(a - b - 1), String(a + b)]);
    return { type: "single", stem: `${a} − ${b} = ?`, options: c.options, answer: c.key, analysis: `${a} 减 ${b} 等于 ${a - b}。`, score: 2 };
  });
  const judges = distinct(15, () => {
    const a = 3 + Math.floor(rand() * 9);
    const b = 3 + Math.floor(rand() * 9);
    const right = rand() < 0.5;
    const shown = right ? a * b : a * b + (rand() < 0.5 ? a : -b);
    return { type: "judge", stem: `${a} × ${b} = ${shown}。`, answer: right ? "T" : "F", analysis: `${a} 乘以 ${b} 等于 ${a * b}。`, score: 2 };
  });
  return [...singles, ...judges]; // 30
}

async function insertBank(
  tx: Queryable,
  pid: number,
  title: string,
  titleEn: string,
  weigh: number,
  questions: Q[],
  kind: "practice" | "exam" = "practice",
): Promise<{ id: number; questionIds: number[] }> {
  const id = await insertBankRow(tx, { pid, title, titleEn, weigh, kind });
  const rows = questions.map((q, i) => ({
    type: q.type,
    stem: q.stem,
    options: JSON.stringify((q.options ?? []).map((text, k) => ({ key: KEYS[k]!, text }))),
    answer: JSON.stringify(q.answer),
    analysis: q.analysis,
    difficulty: q.difficulty ?? 1,
    score: q.score,
    weigh: questions.length - i,
  }));
  return { id, questionIds: await insertQuestions(tx, id, rows) };
}

/** The fixed mock paper (an older demo database's official room sat on it). */
const FIXED_PAPER_TITLE = "数学基础测验（固定）";

export async function seedExam(tx: Queryable): Promise<void> {
  const rootId = await insertBankRow(tx, { pid: 0, title: "示例题库", titleEn: "Sample banks", weigh: 100 });
  const math = await insertBank(tx, rootId, "数学基础", "Basic maths", 30, mathBank());
  const knowledge = await insertBank(tx, rootId, "中国常识", "China general knowledge", 20, knowledgeBank());
  await insertBank(tx, rootId, "英语基础", "English basics", 10, englishBank());

  const fixed = await insertPaper(tx, { title: FIXED_PAPER_TITLE, totalScore: 20, passScore: 12, duration: 900 });
  await insertPaperRows(
    tx,
    fixed,
    math.questionIds.slice(0, 10).map((questionId, i) => ({ kind: "fixed", questionId, score: 2, weigh: 10 - i })),
  );
  const drawn = await insertPaper(tx, { title: "中国常识模拟卷（随机抽题）", totalScore: 15, passScore: 9, duration: 1200, partialCredit: true });
  await insertPaperRows(tx, drawn, [
    { kind: "draw", classifyId: knowledge.id, questionType: "single", count: 5, score: 2 },
    { kind: "draw", classifyId: knowledge.id, questionType: "judge", count: 5, score: 1 },
  ]);

}

const ROOM_TITLE = "数学基础正式考试";

/**
 * The official exam: an exam-only bank (never listed nor downloadable for practice), a paper
 * drawing 5 single-choice and 5 true-or-false questions from it, and a room open now. A demo
 * database made before this part had its room on the fixed mock paper: the room moves to the new
 * paper (the practice banks' answers were downloadable, so that exam's key was public).
 */
export async function seedExamOfficial(tx: Queryable): Promise<void> {
  const bank = await insertBank(tx, 0, "正式考试题库", "Official exam questions", 0, officialBank(), "exam");
  const paperId = await insertPaper(tx, { title: "数学基础正式考试卷（随机抽题）", totalScore: 20, passScore: 12, duration: 900 });
  await insertPaperRows(tx, paperId, [
    { kind: "draw", classifyId: bank.id, questionType: "single", count: 5, score: 2, weigh: 2 },
    { kind: "draw", classifyId: bank.id, questionType: "judge", count: 5, score: 2, weigh: 1 },
  ]);

  if (await roomExists(tx, ROOM_TITLE)) {
    await moveRoomPaper(tx, ROOM_TITLE, FIXED_PAPER_TITLE, paperId);
    return;
  }
  const now = Math.floor(Date.now() / 1000);
  await insertRoom(tx, {
    paperId,
    title: ROOM_TITLE,
    startTime: now - 3600,
    endTime: now + 90 * 86_400,
    duration: 900,
    attemptsAllowed: 3,
    passScore: 12,
    // Open for three months: the answers would reach members before they sit it.
    reviewPolicy: "closed",
  });
}
