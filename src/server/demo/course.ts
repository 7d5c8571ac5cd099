import type { Queryable } from "../db/database.ts";
import { sanitizeRichText } from "../modules/course/html.ts";
import { DEMO_MEDIA_URL, DEMO_PAID_MEDIA_URL, demoMediaSize } from "../modules/course/media.ts";
import { insertCourse, insertCourseCategory, insertLesson, type DemoCourseRow } from "./repository.ts";

/**
 * Demo courses: three categories, three courses (two free, one paid at 19.90 — the demo member
 * has 100.00 after the accountLogs part, so can buy it), lessons with real small videos (MP4,
 * WebM and an HLS playlist, made by src/tools/demo-media.sh), one free-preview lesson in the
 * paid course and one text-only lesson. The media files reach DATA_DIR/storage/course/demo/ at
 * start-up, the paid course's (videos and attachments) DATA_DIR/storage/course/demo-paid/
 * (src/server/modules/course/media.ts).
 */

/** Seconds of each demo video: must match src/tools/demo-media.sh. */
export const DEMO_DURATIONS = { "pattern.mp4": 30, "bars.mp4": 24, "pattern.webm": 20, hls: 24 } as const;
export const DEMO_PAID_PRICE = 1990;

type Video = keyof typeof DEMO_DURATIONS;

interface DemoLesson {
  title: string;
  content: string;
  video?: Video;
  freePreview?: boolean;
  attachments?: { name: string; file: string }[];
}

/** A demo course: its row, in its category's key, with its lessons. */
interface DemoCourse extends Omit<DemoCourseRow, "categoryId"> {
  category: string;
  lessons: DemoLesson[];
}

const CATEGORIES: { key: string; parent?: string; title: string; titleEn: string; weigh: number }[] = [
  { key: "study", title: "学习方法", titleEn: "Study skills", weigh: 30 },
  { key: "tech", title: "技术入门", titleEn: "Tech basics", weigh: 20 },
  { key: "video", parent: "tech", title: "网页视频", titleEn: "Web video", weigh: 10 },
];

const COURSES: DemoCourse[] = [
  {
    category: "study",
    title: "高效学习法：从计划到复盘",
    cover: "cover-study.jpg",
    summary: "用一周时间建立自己的学习系统：制定计划、专注执行、主动回忆与每周复盘。",
    price: 0,
    weigh: 30,
    introduction: `
      <p>很多人学习效率不高，并不是不够努力，而是缺少一套<strong>可以坚持的方法</strong>。本课程用四个短课时，带你搭建一个简单、可复用的学习系统。</p>
      <h3>你将学到</h3>
      <ul>
        <li>把大目标拆成每周、每天可以完成的小任务；</li>
        <li>用番茄工作法保持专注，减少拖延；</li>
        <li>用主动回忆和间隔重复，让知识真正记住；</li>
        <li>每周花 20 分钟复盘，持续调整计划。</li>
      </ul>
      <h3>适合谁</h3>
      <p>正在备考的学生、需要持续学习的职场人，以及任何想让学习更有条理的人。课程免费，报名后即可学习全部课时，学习进度离线也会记录。</p>
      <blockquote>学而不思则罔，思而不学则殆。——《论语》</blockquote>`,
    lessons: [
      {
        title: "为什么要制定学习计划",
        video: "pattern.mp4",
        content: `
          <p>没有计划的学习，常常变成“想到什么学什么”。计划的作用不是束缚你，而是帮你<strong>提前做好决定</strong>，把精力留给真正的学习。</p>
          <h3>SMART 目标</h3>
          <ol>
            <li><strong>具体</strong>：不是“学好数学”，而是“掌握一元二次方程的三种解法”；</li>
            <li><strong>可衡量</strong>：能用做题正确率或完成数量来检验；</li>
            <li><strong>可实现</strong>：以你现在的时间和基础能够做到；</li>
            <li><strong>相关</strong>：与考试或工作目标直接相关；</li>
            <li><strong>有期限</strong>：写清楚截止日期。</li>
          </ol>
          <p>练习：写下本周最重要的三个学习目标，并为每个目标安排具体的时间段。</p>`,
      },
      {
        title: "番茄工作法：25 分钟的专注",
        video: "bars.mp4",
        content: `
          <p>番茄工作法由弗朗西斯科·西里洛提出，核心只有一句话：<em>专注 25 分钟，休息 5 分钟</em>。</p>
          <ul>
            <li>开始前只选一件任务，关掉手机通知；</li>
            <li>专注期间想到的其他事情，先记在纸上，稍后处理；</li>
            <li>每完成 4 个番茄钟，休息 15～30 分钟。</li>
          </ul>
          <p>记录每天完成的番茄钟数量，一周后你会清楚地看到自己真实的学习时间。</p>`,
      },
      {
        title: "主动回忆与间隔重复（图文课时）",
        content: `
          <p>本课时没有视频，阅读约需 5 分钟。报名后打开一次，之后离线也能阅读。</p>
          <h3>主动回忆</h3>
          <p>读完一节内容后，合上书，试着用自己的话把要点说出来或写下来。研究表明，<strong>“提取”记忆的过程本身就能强化记忆</strong>，效果远好于反复阅读。</p>
          <h3>间隔重复</h3>
          <p>遗忘在学习后的头几天最快。按照逐渐拉长的间隔复习，例如：</p>
          <table>
            <thead><tr><th>第几次复习</th><th>距上次学习</th></tr></thead>
            <tbody>
              <tr><td>1</td><td>1 天</td></tr>
              <tr><td>2</td><td>3 天</td></tr>
              <tr><td>3</td><td>7 天</td></tr>
              <tr><td>4</td><td>15 天</td></tr>
            </tbody>
          </table>
          <p>本站的“错题本”和“顺序练习”正是为间隔重复设计的：做错的题会留在错题本里，直到你真正掌握。</p>`,
      },
      {
        title: "每周复盘：让计划越来越准",
        video: "pattern.webm",
        content: `
          <p>每周留出 20 分钟，回答三个问题：</p>
          <ol>
            <li>这周完成了哪些目标？哪些没有完成，为什么？</li>
            <li>哪种方法最有效，下周继续保持？</li>
            <li>下周最重要的三件事是什么？</li>
          </ol>
          <p>复盘不是自责，而是收集数据。坚持四周，你的计划会越来越符合自己的真实节奏。</p>`,
      },
    ],
  },
  {
    category: "video",
    title: "网页视频入门：格式、编码与流媒体",
    cover: "cover-video.jpg",
    summary: "弄懂 MP4、WebM 与 HLS 的区别，理解浏览器如何拖动进度和离线缓存视频。",
    price: DEMO_PAID_PRICE,
    weigh: 20,
    introduction: `
      <p>在线课程离不开视频。本课程面向前端开发者和课程制作者，讲清楚网页视频背后的几个关键概念。</p>
      <h3>课程大纲</h3>
      <ol>
        <li>容器与编码：为什么同样是 .mp4，有的能播有的不能；</li>
        <li>WebM 与开放格式；</li>
        <li>HLS 流媒体：播放列表与分片；</li>
        <li>HTTP Range 请求：拖动进度条时发生了什么。</li>
      </ol>
      <p>第一课时可以<strong>免费试看</strong>。课程价格 19.90 元，使用账户余额购买，购买后永久有效。</p>
      <p>参考资料：<a href="https://developer.mozilla.org/zh-CN/docs/Web/Media/Formats" target="_blank">MDN：网页媒体格式指南</a></p>`,
    lessons: [
      {
        title: "容器与编码（免费试看）",
        video: "pattern.mp4",
        freePreview: true,
        attachments: [{ name: "视频格式速查.txt", file: "cheatsheet.txt" }],
        content: `
          <p>一个视频文件由两部分组成：<strong>容器</strong>（如 MP4、WebM）决定数据如何打包，<strong>编码</strong>（如 H.264、VP9、AAC、Opus）决定画面和声音如何压缩。</p>
          <ul>
            <li>MP4 + H.264 + AAC：兼容性最好，几乎所有浏览器和手机都能播放；</li>
            <li>WebM + VP9 + Opus：开放、免专利费，体积更小；</li>
          </ul>
          <p>制作网页视频时，记得把 MP4 的索引（moov）放在文件开头：</p>
          <pre><code>ffmpeg -i input.mov -c:v libx264 -c:a aac -movflags +faststart output.mp4</code></pre>
          <p>附件中的“视频格式速查”总结了常用格式的特点。</p>`,
      },
      {
        title: "WebM 与开放格式",
        video: "pattern.webm",
        content: `
          <p>WebM 基于 Matroska 容器，视频使用 VP8/VP9/AV1，音频使用 Vorbis/Opus。Chrome、Firefox、Edge 早已支持，较新的 Safari 也能播放。</p>
          <p>如果要同时照顾所有浏览器，可以在 <code>&lt;video&gt;</code> 中提供多个 <code>&lt;source&gt;</code>，浏览器会选择第一个能播放的格式。</p>`,
      },
      {
        title: "HLS 流媒体：播放列表与分片",
        video: "hls",
        content: `
          <p>HLS（HTTP Live Streaming）把视频切成几秒一段的 .ts 分片，再用一个 .m3u8 播放列表描述它们的顺序和时长。</p>
          <ul>
            <li>Safari 原生支持 HLS；</li>
            <li>其他浏览器通过 <a href="https://github.com/video-dev/hls.js" target="_blank">hls.js</a> 借助 Media Source Extensions 播放；</li>
            <li>分片可以按网络状况切换不同码率，适合长视频和直播。</li>
          </ul>
          <p>本课时的视频就是一个 24 秒、每段 4 秒的 HLS 点播列表。</p>`,
      },
      {
        title: "HTTP Range 请求与拖动进度",
        video: "bars.mp4",
        content: `
          <p>拖动进度条时，浏览器并不会重新下载整个文件，而是发送带 <code>Range: bytes=起始-结束</code> 请求头的请求，服务器返回 <strong>206 Partial Content</strong> 和对应的字节范围。</p>
          <p>如果服务器不支持 Range，很多浏览器就无法拖动进度，甚至无法播放。本站的 <code>/storage/</code> 目录支持 Range 请求，上传的视频都能随意拖动。</p>`,
      },
    ],
  },
  {
    category: "study",
    title: "English for Exams: Reading Strategies",
    cover: "cover-english.jpg",
    summary: "Three short lessons on reading exam passages faster and answering more accurately.",
    price: 0,
    weigh: 10,
    introduction: `
      <p>Reading sections reward <strong>strategy</strong> as much as vocabulary. This free course shows three habits that save time in any English reading exam.</p>
      <ul>
        <li>Skim for the main idea, scan for details;</li>
        <li>Read the questions before the passage;</li>
        <li>Work out unknown words from context.</li>
      </ul>
      <p>Each lesson ends with a short exercise you can try on any practice passage.</p>`,
    lessons: [
      {
        title: "Skimming and scanning",
        video: "bars.mp4",
        content: `
          <p><strong>Skimming</strong> means reading quickly for the general idea: the title, the first and last paragraphs, and the first sentence of each paragraph.</p>
          <p><strong>Scanning</strong> means looking for one specific piece of information — a name, a date, a number — without reading everything.</p>
          <p>Exercise: give yourself 60 seconds to skim a passage, then write its main idea in one sentence.</p>`,
      },
      {
        title: "Read the questions first",
        video: "hls",
        content: `
          <p>Before you read the passage, read the questions (not the options). You will know what to look for, and you can underline key words while reading.</p>
          <ol>
            <li>Underline names, numbers and key nouns in each question;</li>
            <li>Skim the passage once;</li>
            <li>Scan for each question's key words and read that part carefully.</li>
          </ol>`,
      },
      {
        title: "Vocabulary in context",
        video: "pattern.webm",
        content: `
          <p>You will always meet unknown words. Instead of stopping, use the context:</p>
          <ul>
            <li><em>Definitions</em>: "…a <strong>drought</strong>, a long period without rain…";</li>
            <li><em>Contrast</em>: "Unlike his <strong>frugal</strong> brother, he spent freely";</li>
            <li><em>Examples</em>: "<strong>citrus</strong> fruits such as oranges and lemons".</li>
          </ul>
          <p>Guess the meaning, keep reading, and check the dictionary after the exam practice.</p>`,
      },
    ],
  },
];

function videoUrl(video: Video, base: string): { url: string; type: "mp4" | "webm" | "hls"; size: number } {
  if (video === "hls") return { url: `${base}/hls/index.m3u8`, type: "hls", size: demoMediaSize("hls") };
  return { url: `${base}/${video}`, type: video.endsWith(".webm") ? "webm" : "mp4", size: demoMediaSize(video) };
}

export async function seedCourse(tx: Queryable): Promise<void> {
  const categoryIds = new Map<string, number>();
  for (const c of CATEGORIES) {
    const id = await insertCourseCategory(tx, { pid: c.parent ? categoryIds.get(c.parent)! : 0, title: c.title, titleEn: c.titleEn, weigh: c.weigh });
    categoryIds.set(c.key, id);
  }
  for (const course of COURSES) {
    const courseId = await insertCourse(tx, {
      categoryId: categoryIds.get(course.category)!,
      title: course.title,
      cover: `${DEMO_MEDIA_URL}/${course.cover}`,
      summary: course.summary,
      introduction: sanitizeRichText(course.introduction.replace(/\n\s*/g, "")),
      price: course.price,
      weigh: course.weigh,
    });
    let weigh = course.lessons.length * 10;
    for (const lesson of course.lessons) {
      // The paid course's media are its own: a file a free course uses is open to everyone.
      const base = course.price > 0 ? DEMO_PAID_MEDIA_URL : DEMO_MEDIA_URL;
      const video = lesson.video ? videoUrl(lesson.video, base) : undefined;
      const attachments = (lesson.attachments ?? []).map((a) => ({ name: a.name, url: `${base}/${a.file}`, size: demoMediaSize(a.file) }));
      await insertLesson(tx, {
        courseId,
        title: lesson.title,
        content: sanitizeRichText(lesson.content.replace(/\n\s*/g, "")),
        videoUrl: video?.url ?? "",
        videoType: video?.type ?? "",
        videoSize: video?.size ?? 0,
        duration: lesson.video ? DEMO_DURATIONS[lesson.video] : 0,
        attachments: JSON.stringify(attachments),
        freePreview: lesson.freePreview ?? false,
        weigh,
      });
      weigh -= 10;
    }
  }
}
