import { useEffect, useId, useState } from "react";
import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, ChevronLeft, ChevronRight, Search, SearchX } from "lucide-react";
import { Link, useSearchParams } from "react-router-dom";
import type { CourseCategoryNode, CourseSummary } from "../../../shared/course/types.ts";
import { CATALOGUE_PAGE_SIZE, catalogueParams, courseQueries, findCategoryPath } from "./api.ts";
import { CourseCover, CourseSize, PriceTag } from "./parts.tsx";
import { Button, selectedClass } from "../../ui/Button.tsx";
import { QueryView } from "../../ui/QueryView.tsx";

export { catalogueParams } from "./api.ts";

/** Typing pauses this long before the search goes into the URL (and to the server). */
export const SEARCH_DEBOUNCE_MS = 350;

const chipClass = (active: boolean) =>
  `inline-flex min-h-11 shrink-0 items-center gap-1.5 rounded-full border px-4 text-sm ${
    active
      ? `border-primary-strong font-medium ${selectedClass}`
      : "border-slate-300 bg-white text-slate-700 hover:border-primary dark:border-slate-600 dark:bg-slate-900 dark:text-slate-200"
  }`;

/** One row of category chips per level of the chosen path: roots, then the children of each chosen node. */
function CategoryChips({ tree, selected, onSelect }: { tree: CourseCategoryNode[]; selected: number; onSelect: (id: number) => void }) {
  const { t } = useLingui();
  const path = findCategoryPath(tree, selected);
  const levels: { parent: CourseCategoryNode | null; nodes: CourseCategoryNode[] }[] = [{ parent: null, nodes: tree }];
  for (const node of path) if (node.children.length > 0) levels.push({ parent: node, nodes: node.children });
  const allIn = (parentTitle: string) => t`All in ${parentTitle}`;
  return (
    <nav aria-label={t`Categories`} className="space-y-2">
      {levels.map(({ parent, nodes }) => (
        <ul key={parent?.id ?? 0} className="flex gap-2 overflow-x-auto pb-1">
          <li>
            <Button variant="bare" aria-pressed={parent ? selected === parent.id : selected === 0} onClick={() => onSelect(parent?.id ?? 0)} className={chipClass(parent ? selected === parent.id : selected === 0)}>
              {parent ? allIn(parent.title) : t`All courses`}
            </Button>
          </li>
          {nodes.map((node) => {
            const active = path.some((p) => p.id === node.id);
            return (
              <li key={node.id}>
                <Button variant="bare" aria-pressed={active} onClick={() => onSelect(node.id)} className={chipClass(active)}>
                  {node.title}
                  <span className={`text-xs ${active ? "text-blue-100" : "text-slate-500 dark:text-slate-400"}`}>{node.courseCount}</span>
                </Button>
              </li>
            );
          })}
        </ul>
      ))}
    </nav>
  );
}

export function CourseCard({ course, first = false }: { course: CourseSummary; first?: boolean }) {
  const { t } = useLingui();
  return (
    <li className="group relative flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm transition hover:border-primary hover:shadow-md dark:border-slate-700 dark:bg-slate-900">
      <CourseCover src={course.cover} first={first} />
      {course.enrolled && (
        <span className="absolute top-2 left-2 inline-flex items-center gap-1 rounded-full bg-emerald-700 px-2.5 py-1 text-xs font-medium text-white shadow">
          <CheckCircle2 aria-hidden className="size-3.5" />
          {t`Enrolled`}
        </span>
      )}
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 className="text-lg leading-snug font-medium">
          {/* The whole card is the link's target area (stretched link). */}
          <Link to={`/course/lesson?id=${course.id}`} className="outline-none after:absolute after:inset-0 focus-visible:underline group-hover:text-primary">
            {course.title}
          </Link>
        </h2>
        {course.summary && <p className="line-clamp-2 text-sm text-slate-600 dark:text-slate-300">{course.summary}</p>}
        <div className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-2 text-sm text-slate-600 dark:text-slate-300">
          <PriceTag cents={course.price} className="text-base" />
          <CourseSize lessons={course.lessonCount} seconds={course.duration} />
        </div>
      </div>
    </li>
  );
}

/** Member center "All courses" (component `course/index`): categories, search, paged course cards. */
export default function CataloguePage() {
  const { t } = useLingui();
  const searchId = useId();
  const [params, setParams] = useSearchParams();
  const filter = catalogueParams(params);
  const [typed, setTyped] = useState(filter.keyword);
  const [synced, setSynced] = useState(filter.keyword);
  if (synced !== filter.keyword) {
    // The URL changed (back/forward, a link): the box follows unless it already says the same.
    setSynced(filter.keyword);
    if (typed.trim() !== filter.keyword) setTyped(filter.keyword);
  }
  const query = useQuery(courseQueries.list(filter));

  useEffect(() => {
    // The search box goes into the URL (and so to the server) once typing pauses.
    const keyword = typed.trim();
    if (keyword === filter.keyword) return;
    const timer = window.setTimeout(() => {
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          if (keyword) next.set("keyword", keyword);
          else next.delete("keyword");
          next.delete("page");
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [typed, filter.keyword, setParams]);

  function update(patch: { category?: number; page?: number }) {
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (patch.category !== undefined) {
        if (patch.category > 0) next.set("category", String(patch.category));
        else next.delete("category");
        next.delete("page");
      }
      if (patch.page !== undefined) {
        if (patch.page > 1) next.set("page", String(patch.page));
        else next.delete("page");
      }
      return next;
    });
  }

  const data = query.data;
  const pageCount = Math.max(1, Math.ceil((data?.total ?? 0) / CATALOGUE_PAGE_SIZE));
  const page = filter.page;
  const keyword = filter.keyword;
  const total = data?.total ?? 0;

  return (
    <section className="space-y-5" aria-labelledby={`${searchId}-title`}>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 id={`${searchId}-title`} className="text-xl font-semibold">
          <Trans>All courses</Trans>
        </h1>
        <div role="search" className="w-full sm:w-72">
          <label htmlFor={searchId} className="sr-only">
            {t`Search courses`}
          </label>
          <div className="relative">
            <Search aria-hidden className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
            <input
              id={searchId}
              type="search"
              value={typed}
              maxLength={100}
              onChange={(e) => setTyped(e.target.value)}
              placeholder={t`Search courses`}
              className="block min-h-11 w-full rounded-md border border-slate-300 bg-white pr-3 pl-9 text-base outline-none focus-visible:ring-2 focus-visible:ring-primary dark:border-slate-600 dark:bg-slate-800"
            />
          </div>
        </div>
      </div>

      {data && data.categories.length > 0 && <CategoryChips tree={data.categories} selected={filter.categoryId} onSelect={(id) => update({ category: id })} />}

      <QueryView query={query} failed={t`The courses could not be loaded.`}>
        {(found) =>
          found.list.length === 0 ? (
            <div className="mx-auto max-w-md space-y-2 py-12 text-center text-slate-600 dark:text-slate-300">
              <SearchX aria-hidden className="mx-auto size-10 text-slate-400" />
              <p>{keyword ? t`No course matches “${keyword}”.` : t`No courses here yet.`}</p>
            </div>
          ) : (
            <>
              <p className="sr-only" role="status">
                {t`${plural(total, { one: "# course found", other: "# courses found" })}`}
              </p>
              <ul className={`grid gap-4 sm:grid-cols-2 lg:grid-cols-3 ${query.isPlaceholderData ? "opacity-60" : ""}`} aria-busy={query.isPlaceholderData}>
                {found.list.map((course, index) => (
                  <CourseCard key={course.id} course={course} first={index === 0} />
                ))}
              </ul>
              {pageCount > 1 && (
                <nav aria-label={t`Pages`} className="flex items-center justify-center gap-3">
                  <Button
                    disabled={page <= 1}
                    onClick={() => update({ page: page - 1 })}
                  >
                    <ChevronLeft aria-hidden className="size-4" />
                    <Trans>Previous</Trans>
                  </Button>
                  <span className="text-sm text-slate-600 dark:text-slate-300">{t`Page ${page} of ${pageCount}`}</span>
                  <Button
                    disabled={page >= pageCount}
                    onClick={() => update({ page: page + 1 })}
                  >
                    <Trans>Next</Trans>
                    <ChevronRight aria-hidden className="size-4" />
                  </Button>
                </nav>
              )}
            </>
          )
        }
      </QueryView>
    </section>
  );
}
