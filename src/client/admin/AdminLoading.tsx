import { AreaLoading } from "../routing/AreaLoading.tsx";
import { takeAdminLoad } from "./session.ts";

export default function AdminLoading() {
  return <AreaLoading load={takeAdminLoad} fallback="/admin/dashboard" />;
}
