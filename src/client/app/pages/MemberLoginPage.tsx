import { Trans } from "@lingui/react/macro";
import { BookOpen, ClipboardCheck, MonitorSmartphone, NotebookPen, WifiOff } from "lucide-react";
import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { MemberAuthPanel } from "../../features/auth/MemberAuthPanel.tsx";
import { afterFirstPaint } from "../../ui/afterPaint.ts";
import { withCommonCatalog } from "../../i18n/index.ts";

// Below the fold: loaded once the login screen has been painted, not on the way to it.
const ScreenshotGallery = lazy(withCommonCatalog(() => import("./ScreenshotGallery.tsx")));
/** The gallery's height (title, gap, a row of 160-px thumbnails) kept while it loads, so nothing below it moves. */
const GALLERY_SPACE = <div aria-hidden className="h-[12.625rem]" />;

function LaterGallery() {
  const [ready, setReady] = useState(false);
  useEffect(() => afterFirstPaint(() => setReady(true)), []);
  if (!ready) return GALLERY_SPACE;
  return (
    <Suspense fallback={GALLERY_SPACE}>
      <ScreenshotGallery />
    </Suspense>
  );
}

function Benefit({ icon, title, children }: { icon: ReactNode; title: ReactNode; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span aria-hidden className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-lg bg-white/15">
        {icon}
      </span>
      <div>
        <p className="font-semibold">{title}</p>
        <p className="text-sm text-blue-50">{children}</p>
      </div>
    </li>
  );
}

/**
 * `/`: the member login screen: what the member gets (courses, practice, exams) and the offline
 * promise beside login and registration. Nothing heavy loads here: the screenshots below are
 * small thumbnails (their code loads once the screen has been painted), the full images load
 * only when opened.
 */
export default function MemberLoginPage() {
  return (
    <section aria-labelledby="home-title" className="space-y-8">
      {/* Desktop: the blue hero (intro over benefits) left of the login panel. Phone: the intro,
          then the login panel, then the benefits, so the form is on the first screen. */}
      <div className="grid gap-y-6 md:grid-cols-[1fr_24rem] md:grid-rows-[auto_1fr] md:gap-x-6 md:gap-y-0">
        <div className="rounded-2xl bg-blue-700 p-6 pb-4 text-white shadow md:rounded-b-none md:p-8 md:pb-0">
          <h1 id="home-title" className="text-2xl font-bold sm:text-3xl">
            <Trans>Learn and sit exams anywhere</Trans>
          </h1>
          <p className="mt-2 max-w-prose text-blue-50">
            <Trans>Courses with video lessons, practice, mock and official tests. Practice keeps working when the network does not.</Trans>
          </p>
        </div>
        <div className="md:col-start-2 md:row-span-2 md:row-start-1">
          <MemberAuthPanel />
        </div>
        <div className="flex flex-col gap-6 rounded-2xl bg-gradient-to-b from-blue-700 to-indigo-800 p-6 text-white shadow md:rounded-t-none md:p-8 md:pt-6">
          <ul className="grid gap-4 lg:grid-cols-2">
            <Benefit icon={<BookOpen className="size-5" />} title={<Trans>Courses</Trans>}>
              <Trans>Lessons with video, resumed where you left off.</Trans>
            </Benefit>
            <Benefit icon={<NotebookPen className="size-5" />} title={<Trans>Practice</Trans>}>
              <Trans>Question banks one question at a time, graded at once, with favourites and a wrong-question book.</Trans>
            </Benefit>
            <Benefit icon={<ClipboardCheck className="size-5" />} title={<Trans>Exams</Trans>}>
              <Trans>Mock tests drawn from the banks and official exams on the server's clock, with results and records.</Trans>
            </Benefit>
            <Benefit icon={<MonitorSmartphone className="size-5" />} title={<Trans>On every device</Trans>}>
              <Trans>Install it on your phone or computer like an app.</Trans>
            </Benefit>
          </ul>
          <div className="flex gap-3 rounded-xl bg-white/10 p-4 ring-1 ring-white/20">
            <WifiOff aria-hidden className="mt-0.5 size-5 shrink-0" />
            <div>
              <p className="font-semibold">
                <Trans>Works offline</Trans>
              </p>
              <p className="text-sm text-blue-50">
                <Trans>Banks and lessons you save stay on your device. Answers are stored there first and synced exactly once when you are back online.</Trans>
              </p>
            </div>
          </div>
        </div>
      </div>
      <LaterGallery />
    </section>
  );
}
