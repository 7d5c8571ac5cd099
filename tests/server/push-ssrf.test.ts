import { createECDH, randomBytes, randomUUID } from "node:crypto";
import type { LookupAddress } from "node:dns";
import { createServer, connect, type LookupFunction, type Server } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isPublicAddress } from "../../src/server/modules/push/endpoint.ts";
import { httpsTransport, type PushTransport } from "../../src/server/modules/push/transport.ts";
import { MAX_PUSH_DEVICES } from "../../src/shared/push.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createMember, type TestMember } from "../helpers/factories.ts";

/**
 * Web push may not reach inside the network: a member chooses the endpoint
 * the server POSTs to, so it must be an https URL on a public address when subscribing, and the
 * connection itself is checked again when sending (the name may resolve elsewhere by then). A
 * member has at most MAX_PUSH_DEVICES devices and 5 tests a minute.
 *
 * No traffic leaves this machine: the app's transport is the real one (https.request through
 * request-filtering-agent) whose connections resolve every name to 127.0.0.1, where a plain TCP
 * server counts the connections that reach it; only the subscribe-time name lookup is a table.
 */

/** Counts the TCP connections that reach it (a TLS handshake never completes: none is needed). */
let inside: Server;
let connections = 0;
let port = 0;

/** Every name resolves to 127.0.0.1, as a rebinding name does at send time. */
const toLoopback: LookupFunction = (_hostname, options, callback) => {
  if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }] as LookupAddress[]);
  else callback(null, "127.0.0.1", 4);
};

/** What names resolved to when the member subscribed; absent: not found. */
const atSubscribe = new Map<string, string[]>([
  ["push.example.net", ["151.101.1.1", "2a04:4e42::1"]],
  ["push.example.net.", ["151.101.1.1"]],
  ["meta.example.net", ["169.254.169.254"]],
  ["lan.example.net", ["10.1.2.3"]],
  ["mixed.example.net", ["151.101.1.1", "127.0.0.1"]],
  ["loop6.example.net", ["::1"]],
  ["mapped.example.net", ["::ffff:7f00:1"]],
  ["ula.example.net", ["fd00::5"]],
  ["cgnat.example.net", ["100.64.1.1"]],
]);
const resolved: string[] = [];

const real = httpsTransport({ lookup: toLoopback, timeoutMs: 2_000 });
const transport: PushTransport = {
  send: (request) => real.send(request),
  async resolve(hostname) {
    resolved.push(hostname);
    const addresses = atSubscribe.get(hostname);
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses;
  },
};

let t: TestApp;

beforeAll(async () => {
  inside = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => inside.listen(0, "127.0.0.1", resolve));
  port = (inside.address() as { port: number }).port;
  t = await createTestApp({ deps: { pushTransport: transport } });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => inside.close(resolve));
});
beforeEach(() => {
  connections = 0;
  resolved.length = 0;
});

function keys() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
}
const subscribe = async (m: TestMember, endpoint: string, device = `dev-${randomUUID().slice(0, 8)}`, remoteAddress?: string) =>
  (
    await t.app.inject({
      method: "POST",
      url: "/api/push/subscribe",
      headers: m.headers,
      payload: { device, subscription: { endpoint, keys: keys() }, hour: 20, timeZone: "UTC" },
      ...(remoteAddress ? { remoteAddress } : {}),
    })
  ).json();
const pushTest = async (m: TestMember, remoteAddress?: string) =>
  t.app.inject({ method: "POST", url: "/api/push/test", headers: m.headers, ...(remoteAddress ? { remoteAddress } : {}) });
const devices = async (userId: number) =>
  (await t.database.db.query<{ device: string }>("select device from push_subscription where user_id = $1 order by id", [userId])).rows.map((r) => r.device);

describe("subscribe: only https endpoints on public addresses", () => {
  // Every spelling below is one the WHATWG URL parser accepts and the connection would follow.
  const literals = [
    "https://127.0.0.1:9443/wpush/v2/x",
    "https://127.0.0.1./x",
    "https://0x7f000001/x",
    "https://0x7f.0.0.1/x",
    "https://2130706433/x",
    "https://017700000001/x",
    "https://127.1/x",
    "https://%31%32%37.0.0.1/x",
    "https://0/x",
    "https://0.0.0.0/x",
    "https://[::1]/x",
    "https://[0:0:0:0:0:0:0:1]:8443/x",
    "https://[::]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://[::ffff:a9fe:a9fe]/x",
    "https://169.254.169.254/latest/meta-data/",
    "https://[fe80::1]/x",
    "https://[fd00:ec2::254]/x",
    "https://10.0.0.5/x",
    "https://172.16.3.4/x",
    "https://192.168.1.1/x",
    "https://100.64.0.1/x",
    "https://224.0.0.1/x",
    "https://[ff02::1]/x",
    "https://255.255.255.255/x",
    "https://240.0.0.1/x",
    "https://192.0.2.10/x",
    "https://[64:ff9b::7f00:1]/x",
    "https://[2002:7f00:1::]/x",
  ];
  const names = ["https://localhost/x", "https://LOCALHOST./x", "https://localhost:9443/x", "https://push.localhost/x", "https://intranet/x", "https://metadata./x"];
  const resolvingInside = [
    "https://meta.example.net/latest",
    "https://lan.example.net/x",
    "https://mixed.example.net/x",
    "https://loop6.example.net/x",
    "https://mapped.example.net/x",
    "https://ula.example.net/x",
    "https://cgnat.example.net/x",
  ];

  it("refuses loopback, private, link-local, reserved, multicast and unspecified hosts in every spelling, names that mean them, and names resolving to them", async () => {
    const members: TestMember[] = [];
    for (const [i, endpoint] of [...literals, ...names, ...resolvingInside].entries()) {
      // A member may subscribe 30 times a minute: a new member every 20 endpoints.
      if (i % 20 === 0) members.push(await createMember(t.database.db));
      const res = await subscribe(members.at(-1)!, endpoint);
      expect({ endpoint, res }).toMatchObject({ endpoint, res: { code: 0, msg: "Reminders can only be sent through a public push service" } });
    }
    // Address literals and `localhost` are judged without asking the resolver.
    expect(resolved.sort()).toEqual(resolvingInside.map((e) => new URL(e).hostname).sort());
    for (const m of members) expect(await devices(m.id)).toEqual([]);
    expect(connections).toBe(0);
  });

  it("refuses a name that does not resolve, and plain http or credentials in the URL, with a clear message", async () => {
    const m = await createMember(t.database.db);
    expect(await subscribe(m, "https://nowhere.example.net/x")).toMatchObject({ code: 0, msg: "The push service's address could not be found: please try again later" });
    expect(await subscribe(m, "http://push.example.net/x")).toMatchObject({ code: 0, msg: "This push subscription is not valid" });
    expect(await subscribe(m, "https://user:secret@push.example.net/x")).toMatchObject({ code: 0, msg: "This push subscription is not valid" });
    expect(await devices(m.id)).toEqual([]);
  });

  it("accepts a public push service by name (IPv4 and IPv6 addresses) or by public address", async () => {
    const m = await createMember(t.database.db);
    expect(await subscribe(m, "https://push.example.net/wpush/v2/abc", "phone-public")).toMatchObject({ code: 1, data: { subscribed: true, replaced: 0 } });
    expect(await subscribe(m, "https://push.example.net./wpush/v2/abc2", "tablet-public")).toMatchObject({ code: 1 });
    expect(await subscribe(m, "https://151.101.1.1/wpush/v2/abc3", "laptop-public")).toMatchObject({ code: 1 });
    expect(await subscribe(m, "https://[2a04:4e42::1]/wpush/v2/abc4", "desk-public")).toMatchObject({ code: 1 });
    expect(await devices(m.id)).toEqual(["phone-public", "tablet-public", "laptop-public", "desk-public"]);
  });

  it("the address check is ipaddr.js's: only unicast is public", () => {
    for (const address of ["151.101.1.1", "8.8.8.8", "2a04:4e42::1", "2001:4860:4860::8888"]) expect(isPublicAddress(address)).toBe(true);
    for (const address of ["127.0.0.1", "10.0.0.1", "169.254.169.254", "::1", "::ffff:8.8.8.8", "fe80::1", "0.0.0.0", "not-an-ip", "0x7f000001", ""]) {
      expect(isPublicAddress(address)).toBe(false);
    }
  });
});

describe("send: the connection's own address is checked (DNS rebinding)", () => {
  it("a name that was public when subscribing and resolves to 127.0.0.1 now is refused before connecting", async () => {
    // The control: this name, through this resolver, does reach the server inside.
    await new Promise<void>((resolve, reject) => {
      const socket = connect({ host: "push.example.net", port, lookup: toLoopback }, () => {
        socket.destroy();
        resolve();
      });
      socket.on("error", reject);
    });
    await expect.poll(() => connections).toBe(1);
    connections = 0;

    const m = await createMember(t.database.db);
    expect(await subscribe(m, `https://push.example.net:${port}/wpush/v2/rebind`, "phone-rebind")).toMatchObject({ code: 1 });
    const res = await pushTest(m);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 0, msg: expect.stringContaining("could not be delivered") });
    expect(connections).toBe(0);
    expect(t.logs.lines.filter((l) => l.includes('"push not sent"')).at(-1)).toContain("127.0.0.1(family:4, host:push.example.net) is not allowed");
    // Kept (the push service may answer again later); never sent inside.
    expect(await devices(m.id)).toEqual(["phone-rebind"]);
  });

  it("an inside address stored before the subscribe check existed is refused too", async () => {
    const m = await createMember(t.database.db);
    const k = keys();
    for (const [device, endpoint] of [
      ["old-literal", `https://127.0.0.1:${port}/x`],
      ["old-hex", `https://0x7f000001:${port}/x`],
      ["old-v6", `https://[::ffff:127.0.0.1]:${port}/x`],
      ["old-name", `https://localhost:${port}/x`],
    ]) {
      await t.database.db.query("insert into push_subscription (user_id, device, endpoint, p256dh, auth, create_time, update_time) values ($1, $2, $3, $4, $5, 0, 0)", [
        m.id,
        device,
        endpoint,
        k.p256dh,
        k.auth,
      ]);
    }
    const res = await pushTest(m);
    expect(res.json()).toMatchObject({ code: 0, msg: expect.stringContaining("could not be delivered") });
    expect(connections).toBe(0);
  });

  it("the real transport's subscribe-time resolver is the one its connections use", async () => {
    const seen: string[] = [];
    const lookup: LookupFunction = (hostname, options, callback) => {
      seen.push(hostname);
      toLoopback(hostname, options, callback);
    };
    expect(await httpsTransport({ lookup }).resolve("push.example.net")).toEqual(["127.0.0.1"]);
    expect(seen).toEqual(["push.example.net"]);
  });
});

describe("limits per member", () => {
  it(`at most ${MAX_PUSH_DEVICES} devices: a new one replaces the device that subscribed longest ago, never the one subscribing`, async () => {
    const m = await createMember(t.database.db);
    const names = Array.from({ length: MAX_PUSH_DEVICES }, (_, i) => `device-${String(i).padStart(2, "0")}`);
    for (const name of names) expect(await subscribe(m, `https://push.example.net/wpush/v2/${name}`, name)).toMatchObject({ code: 1, msg: "Reminders are on for this device" });
    // Ages (seconds): device-03 subscribed longest ago, then device-00; device-00 renewing makes it the newest.
    await t.database.db.query("update push_subscription set update_time = 1000 + id where user_id = $1", [m.id]);
    await t.database.db.query("update push_subscription set update_time = 5 where user_id = $1 and device = 'device-03'", [m.id]);
    await t.database.db.query("update push_subscription set update_time = 10 where user_id = $1 and device = 'device-00'", [m.id]);

    // The same device again is no new device: nothing is replaced.
    expect(await subscribe(m, "https://push.example.net/wpush/v2/renewed-05", "device-05")).toMatchObject({ code: 1, data: { replaced: 0 } });
    expect(await devices(m.id)).toHaveLength(MAX_PUSH_DEVICES);

    const eleventh = await subscribe(m, "https://push.example.net/wpush/v2/eleventh", "device-new1");
    expect(eleventh).toMatchObject({
      code: 1,
      data: { subscribed: true, replaced: 1 },
      msg: `Reminders are on for this device. At most ${MAX_PUSH_DEVICES} devices receive them, so the device that subscribed longest ago no longer does`,
    });
    expect(await devices(m.id)).toHaveLength(MAX_PUSH_DEVICES);
    expect(await devices(m.id)).not.toContain("device-03");

    await subscribe(m, "https://push.example.net/wpush/v2/twelfth", "device-new2");
    expect(await devices(m.id)).toHaveLength(MAX_PUSH_DEVICES);
    expect(await devices(m.id)).not.toContain("device-00");
    expect(await devices(m.id)).toEqual(expect.arrayContaining(["device-new1", "device-new2", "device-05"]));
    const config = (await t.app.inject({ method: "GET", url: "/api/push/config?device=device-new2", headers: m.headers })).json();
    expect(config.data).toMatchObject({ subscribed: true, devices: MAX_PUSH_DEVICES });
  });

  it("5 tests a minute per member, whatever the address; another member on the same address is not held back", async () => {
    const a = await createMember(t.database.db);
    const b = await createMember(t.database.db);
    await subscribe(a, `https://push.example.net:${port}/wpush/v2/a`, "phone-limit-a");
    await subscribe(b, `https://push.example.net:${port}/wpush/v2/b`, "phone-limit-b");
    const addresses = ["198.51.100.1", "198.51.100.2", "198.51.100.3", "198.51.100.4", "198.51.100.5", "198.51.100.6"];
    const answers = [];
    for (const address of addresses) answers.push(await pushTest(a, address));
    expect(answers.slice(0, 5).map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[5]!.statusCode).toBe(429);
    expect(answers[5]!.json()).toMatchObject({ code: 0, msg: "Too many requests, please try again later" });
    // Member b shares the first address with a, and is still served.
    const other = await pushTest(b, addresses[0]);
    expect(other.statusCode).toBe(200);
    expect(other.json().msg).toContain("could not be delivered");
    expect(connections).toBe(0);
  });

  it("subscribing is limited per member too (30 a minute), not per address", async () => {
    const a = await createMember(t.database.db);
    const b = await createMember(t.database.db);
    for (let i = 0; i < 30; i++) await subscribe(a, `https://push.example.net/wpush/v2/a${i}`, "phone-sub-a", `203.0.113.${i + 1}`);
    expect(await subscribe(a, "https://push.example.net/wpush/v2/a-more", "phone-sub-a", "203.0.113.200")).toMatchObject({ code: 0, msg: "Too many requests, please try again later" });
    expect(await subscribe(b, "https://push.example.net/wpush/v2/b", "phone-sub-b", "203.0.113.1")).toMatchObject({ code: 1 });
  });
});
