import { useEffect, useState } from "react";
import { useLingui } from "@lingui/react/macro";
import { WELCOME_BACK, greetingFor } from "../../shared/greeting.ts";
import { useAdminInfo } from "../stores/adminInfo.ts";

/** Admin home: the time-of-day greeting (SPEC §9) followed by "welcome back". */
export default function Dashboard() {
  const { i18n, t } = useLingui();
  const name = useAdminInfo((s) => s.nickname || s.username);
  const [hour, setHour] = useState(() => new Date().getHours());
  useEffect(() => {
    const timer = setInterval(() => setHour(new Date().getHours()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <section className="space-y-4">
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <h1 className="text-xl font-semibold" data-testid="greeting">
          {i18n._(greetingFor(hour))}, {name}, {i18n._(WELCOME_BACK)}
        </h1>
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{t`This is the back office of your course and exam platform.`}</p>
      </div>
    </section>
  );
}
