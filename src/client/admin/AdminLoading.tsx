import { AreaLoading } from "../routing/AreaLoading.tsx";
import { loadAdmin } from "./session.ts";

export default function AdminLoading() {
  return <AreaLoading load={loadAdmin} fallback="/admin/dashboard" />;
}
