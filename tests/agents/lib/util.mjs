// Shared helpers of the agent suite: installs into the cache, child processes with a time
// limit, throwaway projects with a compiled policy, the offline environment.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";

export const SUITE_DIR = path.dirname(path.dirname(new URL(import.meta.url).pathname));
export const REPO = path.dirname(path.dirname(SUITE_DIR));

export function cacheDir() {
  const d = process.env.POLC_AGENTS_CACHE || path.join(os.homedir(), ".cache", "polc-agents");
  fs.mkdirSync(d, { recursive: true });
  return d;
}

export function pins() {
  return JSON.parse(fs.readFileSync(path.join(SUITE_DIR, "versions.json"), "utf8"));
}

// Install `pkg@version` (plus `extra` packages, e.g. a platform binary) into its own folder
// of the cache, once. Returns the folder holding node_modules.
export function install(name, pin) {
  const spec = [`${pin.package}@${pin.version}`, ...(pin.extra || []).map((e) => e.replace("{version}", pin.version))];
  const dir = path.join(cacheDir(), `${name}-${pin.version}`);
  const stamp = path.join(dir, ".installed");
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8") === spec.join(" ")) return { dir, cached: true };
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), '{"private":true}\n');
  const r = spawnSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--omit=dev", "--no-save", "--loglevel=error", ...spec],
    { cwd: dir, encoding: "utf8", timeout: 600_000 },
  );
  if (r.status !== 0) throw new Error(`npm install ${spec.join(" ")} failed:\n${r.stderr}${r.stdout}`);
  fs.writeFileSync(stamp, spec.join(" "));
  return { dir, cached: false };
}

// Run a child with a time limit; resolves {code, signal, stdout, stderr, ms, timedOut}.
export function run(cmd, args, { cwd, env, stdin, timeoutMs = 60_000 } = {}) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const p = spawn(cmd, args, {
      cwd,
      env,
      stdio: [stdin == null ? "ignore" : "pipe", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "",
      stderr = "",
      timedOut = false;
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    if (stdin != null) p.stdin.end(stdin);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-p.pid, "SIGKILL");
      } catch {}
    }, timeoutMs);
    p.on("error", (e) => {
      clearTimeout(timer);
      resolve({ code: -1, signal: null, stdout, stderr: stderr + String(e), ms: Date.now() - t0, timedOut });
    });
    p.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - t0, timedOut });
    });
  });
}

export function tmpdir(prefix) {
  const base = process.env.POLC_AGENTS_TMP || os.tmpdir();
  return fs.realpathSync(fs.mkdtempSync(path.join(base, `polc-agents-${prefix}-`)));
}

export function polcBin() {
  const b = process.env.POLC_BIN || path.join(REPO, "target", "debug", "polc");
  if (!fs.existsSync(b)) throw new Error(`polc binary not found at ${b} (tests/agents/run builds one, or set POLC_BIN)`);
  // The suite isolates polc's folders per scenario with POLC_CONFIG_DIR/CACHE/STATE, which
  // only a `test-paths` build honours; any other build would read the real user's folders.
  const v = spawnSync(b, ["--version"], { encoding: "utf8" });
  if (!/TEST BUILD/.test(v.stdout + v.stderr))
    throw new Error(`${b} is not a test-paths build (${(v.stdout || v.stderr).trim()}): cargo build --features test-paths`);
  return b;
}

// The policy every scenario uses: one command per decision. The reason of the deny rule is
// what the test looks for in what reached the model.
export const DENY_REASON = "polc-agent-suite: denied on purpose";
export const POLICY = `
deny bash prefix "touch deny-marker" {
  id     suite-deny
  reason "${DENY_REASON}"
}
ask bash prefix "touch ask-marker" {
  id     suite-ask
  reason "polc-agent-suite: a person decides"
}
allow bash prefix "touch allow-marker" {
  id     suite-allow
  reason "polc-agent-suite: allowed on purpose"
}
`;

// The command the model asks to run for each decision (it creates the marker file).
export const COMMAND = {
  deny: "touch deny-marker",
  ask: "touch ask-marker",
  allow: "touch allow-marker",
  default: "touch default-marker",
};

export function compile(polc, srcDir, out) {
  fs.mkdirSync(srcDir, { recursive: true });
  fs.writeFileSync(path.join(srcDir, "suite.pol"), POLICY);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const r = spawnSync(polc, ["build", srcDir, "-o", out], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`polc build failed: ${r.stderr}${r.stdout}`);
}

// Record trust for (root, table) the way `polc trust` does: SHA-256 of the table, the
// canonical root and the canonical table path, tab-separated, one line in <config>/trusted.
// (The suite has no terminal to answer the prompt; if the format changes the "allow, trusted
// project" rows fail and say so.)
export function trust(config, root, table) {
  const h = crypto.createHash("sha256").update(fs.readFileSync(table)).digest("hex");
  fs.appendFileSync(path.join(config, "trusted"), `${h}\t${fs.realpathSync(root)}\t${fs.realpathSync(table)}\n`);
}

// A throwaway project and polc config folder for one scenario. `layer` says where the table
// lives: "user" (config/policy.bin), "project" (trusted compiled/policy.bin), "untrusted",
// "corrupt" (a project table of garbage) or "none".
export function project(polc, layer = "user") {
  const root = tmpdir("proj");
  const config = tmpdir("cfg");
  const home = tmpdir("home");
  if (layer === "user") compile(polc, path.join(config, "src"), path.join(config, "policy.bin"));
  if (layer === "project" || layer === "untrusted") {
    compile(polc, path.join(root, "policies"), path.join(root, "compiled", "policy.bin"));
    if (layer === "project") trust(config, root, path.join(root, "compiled", "policy.bin"));
  }
  if (layer === "corrupt") {
    fs.mkdirSync(path.join(root, "compiled"), { recursive: true });
    fs.writeFileSync(path.join(root, "compiled", "policy.bin"), Buffer.from("POLC\0garbage-not-a-table".repeat(20)));
  }
  const cache = tmpdir("cache");
  const state = tmpdir("state");
  // Honoured only by a `test-paths` build of polc (run.mjs checks): the hook's config, cache
  // and state folders stay inside the scenario.
  const polcEnv = { POLC_CONFIG_DIR: config, POLC_CACHE_DIR: cache, POLC_STATE_DIR: state };
  return { root, config, home, polcEnv };
}

export function markerRan(root, decision) {
  const name = COMMAND[decision].split(" ")[1];
  return fs.existsSync(path.join(root, name));
}

// The environment every agent runs in: nothing from the caller's but PATH and locale, a
// throwaway HOME, every proxy variable pointing at the refusing proxy (so a contact with
// anything but 127.0.0.1 is recorded and fails the suite).
export function offlineEnv(proxyUrl, extra = {}) {
  const env = {
    PATH: process.env.PATH,
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    ALL_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    https_proxy: proxyUrl,
    all_proxy: proxyUrl,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    ...extra,
  };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env;
}

// A hook command line, quoted for sh.
export function sh(...words) {
  return words.map((w) => (/^[A-Za-z0-9_\/.:=@-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(" ");
}
