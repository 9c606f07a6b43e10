// npm run lock:platforms — after `npm install` changes package-lock.json.
//
// The registry this project is developed against serves only the Linux builds of the packages that
// ship one native binary per platform (Biome, Next's SWC, Tailwind's oxide), so npm leaves the
// other platforms' optional packages out of the lockfile, and `npm ci` then refuses the lockfile as
// out of sync. This adds one entry per missing platform package, with the exact version its parent
// pins and the os/cpu/libc its name states, and no tarball: npm skips it on other platforms without
// fetching it, and on its own platform fetches it by version from the public registry.
import { readFileSync, writeFileSync } from "node:fs";

const OS = ["android", "darwin", "freebsd", "linux", "win32", "openbsd", "netbsd", "sunos", "aix"];
const CPU = ["arm64", "x64", "arm", "ia32", "wasm32", "s390x", "ppc64", "riscv64"];

/** os/cpu/libc from a platform package's name, e.g. "@biomejs/cli-linux-x64-musl". */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  if (!cpu) return null;
  const libc = parts.includes("musl") ? ["musl"] : parts.includes("gnu") ? ["glibc"] : undefined;
  return { ...(os ? { os: [os] } : {}), cpu: [cpu], ...(libc ? { libc } : {}) };
}

const file = "package-lock.json";
const lock = JSON.parse(readFileSync(file, "utf8"));
let added = 0;
for (const [key, entry] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = `node_modules/${dep}`;
    if (lock.packages[at] || !/^\d+\.\d+\.\d+/.test(version)) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    lock.packages[at] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platform,
    };
    added++;
    console.log(`added ${at}@${version} for ${key || "(root)"}`);
  }
}
// npm keeps the packages map sorted by path.
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => a.localeCompare(b, "en")),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${added} platform entries added`);
