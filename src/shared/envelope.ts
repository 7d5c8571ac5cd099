import type { ApiCode } from "./constants.ts";

/** Every API answer (API.md): `time` is Unix seconds. */
export interface Envelope<T = unknown> {
  code: ApiCode | number;
  msg: string;
  time: number;
  data: T;
}

export interface HealthData {
  db: "ok" | "error";
  version: string;
}

export function unixSeconds(date: Date | number = Date.now()): number {
  return Math.floor((typeof date === "number" ? date : date.getTime()) / 1000);
}
