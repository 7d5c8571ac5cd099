import { Trans } from "@lingui/react/macro";
import { BookOpen, ClipboardCheck, WifiOff } from "lucide-react";
import type { ReactNode } from "react";
import { ScreenshotGallery } from "./ScreenshotGallery.tsx";
import { MemberAuthPanel } from "../../features/auth/MemberAuthPanel.tsx";

function Feature({ icon, title, children }: { icon: ReactNode; title: ReactNode; children: ReactNode }) {
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900">
      <div className="mb-2 flex items-center gap-2 font-medium">
        {icon}
        {title}
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-300">{children}</p>
    </li>
  );
}

/** `/`: the member login screen: login and registration beside what the product offers. */
export default function MemberLoginPage() {
  return (
    <section aria-labelledby="home-title" className="space-y-6">
      <div className="grid gap-6 md:grid-cols-[1fr_24rem] md:items-start">
        <div className="rounded-2xl bg-gradient-to-br from-blue-600 to-indigo-700 p-6 text-white shadow md:min-h-full">
          <h1 id="home-title" className="text-2xl font-bold">
            <Trans>Learn and sit exams anywhere</Trans>
          </h1>
          <p className="mt-2 max-w-prose text-blue-50">
            <Trans>Courses with video lessons, practice, mock and official tests. Practice keeps working when the network does not.</Trans>
          </p>
        </div>
        <MemberAuthPanel />
      </div>
      <ul className="grid gap-4 sm:grid-cols-3">
        <Feature icon={<BookOpen aria-hidden className="size-5 text-primary" />} title={<Trans>Courses</Trans>}>
          <Trans>Lessons with video, resumed where you left off.</Trans>
        </Feature>
        <Feature icon={<ClipboardCheck aria-hidden className="size-5 text-primary" />} title={<Trans>Exams</Trans>}>
          <Trans>Sequential practice, mock tests, official tests and your wrong-question book.</Trans>
        </Feature>
        <Feature icon={<WifiOff aria-hidden className="size-5 text-primary" />} title={<Trans>Offline</Trans>}>
          <Trans>Answers are saved on your device first and synced when you are back online.</Trans>
        </Feature>
      </ul>
      <ScreenshotGallery />
    </section>
  );
}
