import {
  Bell,
  BookOpen,
  BookOpenText,
  BriefcaseBusiness,
  Building,
  CalendarCheck,
  Building2,
  CirclePlay,
  ClipboardCheck,
  Code,
  Coins,
  DoorOpen,
  EyeOff,
  FileQuestionMark,
  FileText,
  Folder,
  FolderTree,
  History,
  Layers,
  LayoutDashboard,
  ListChecks,
  ListOrdered,
  ListTree,
  Lock,
  Megaphone,
  Package,
  Paperclip,
  Recycle,
  ScanFace,
  School,
  ScrollText,
  Settings,
  Shapes,
  ShieldCheck,
  SlidersHorizontal,
  SquareMenu,
  Store,
  Table,
  UserCog,
  UserRound,
  UsersRound,
  Wallet,
  type LucideIcon,
} from "lucide-react";
import type { MenuRule } from "../routing/menus.ts";

/**
 * The icons a menu rule may name in its `icon` column, by lucide's kebab-case names (the icon
 * picker's "local" set). A small set on purpose: the whole icon library is a large download.
 */
export const MENU_ICONS: Record<string, LucideIcon> = {
  "book-open": BookOpen,
  "book-open-text": BookOpenText,
  "briefcase-business": BriefcaseBusiness,
  building: Building,
  "building-2": Building2,
  "calendar-check": CalendarCheck,
  "circle-play": CirclePlay,
  "clipboard-check": ClipboardCheck,
  code: Code,
  coins: Coins,
  "door-open": DoorOpen,
  "eye-off": EyeOff,
  "file-question-mark": FileQuestionMark,
  "file-text": FileText,
  folder: Folder,
  "folder-tree": FolderTree,
  history: History,
  layers: Layers,
  "layout-dashboard": LayoutDashboard,
  "list-checks": ListChecks,
  "list-ordered": ListOrdered,
  "list-tree": ListTree,
  lock: Lock,
  megaphone: Megaphone,
  package: Package,
  paperclip: Paperclip,
  recycle: Recycle,
  "scan-face": ScanFace,
  school: School,
  "scroll-text": ScrollText,
  settings: Settings,
  shapes: Shapes,
  "shield-check": ShieldCheck,
  "sliders-horizontal": SlidersHorizontal,
  "square-menu": SquareMenu,
  store: Store,
  table: Table,
  "user-cog": UserCog,
  "user-round": UserRound,
  "users-round": UsersRound,
  wallet: Wallet,
};

/** The built-in rules (migration 0003) by name, for rules whose `icon` is empty. */
const BY_RULE_NAME: Record<string, LucideIcon> = {
  dashboard: LayoutDashboard,
  auth: ShieldCheck,
  "auth/admin": UserCog,
  "auth/group": UsersRound,
  "auth/rule": ListTree,
  "auth/adminLog": ScrollText,
  org: Building2,
  "org/company": Building,
  "org/duty": BriefcaseBusiness,
  "org/classroom": School,
  "org/faceRule": ScanFace,
  user: UsersRound,
  "user/user": UserRound,
  "user/group": Layers,
  "user/rule": ListChecks,
  "user/moneyLog": Wallet,
  "user/scoreLog": Coins,
  "user/notice": Bell,
  course: BookOpen,
  "course/category": FolderTree,
  "course/course": BookOpenText,
  "course/lesson": CirclePlay,
  exam: ClipboardCheck,
  "exam/classify": FolderTree,
  "exam/questionType": Shapes,
  "exam/question": FileQuestionMark,
  "exam/paper": FileText,
  "exam/paperRow": ListOrdered,
  "exam/room": DoorOpen,
  routine: Settings,
  "routine/config": SlidersHorizontal,
  "routine/attachment": Paperclip,
  security: Lock,
  "security/dataRecycle": Recycle,
  "security/sensitiveData": EyeOff,
  "crud/crud": Code,
  "moduleStore/moduleStore": Store,
};

/** `LayoutDashboard`, `layout-dashboard` or `local-layout-dashboard` -> `layout-dashboard`. */
function iconKey(value: string): string {
  return value
    .trim()
    .replace(/^local-/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase();
}

/**
 * A rule's icon: the one its `icon` column names when this app has it, else the built-in rule's
 * icon by name, else a folder for directories and a page for menus. (Font-class icons such as
 * `fa fa-user` need style sheets this app does not load, so they fall back too.)
 */
export function menuIcon(rule: Pick<MenuRule, "icon" | "name" | "type">): LucideIcon {
  const own = rule.icon ? MENU_ICONS[iconKey(rule.icon)] : undefined;
  return own ?? BY_RULE_NAME[rule.name] ?? (rule.type === "menu_dir" ? Folder : SquareMenu);
}
