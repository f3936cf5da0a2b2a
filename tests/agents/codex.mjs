// OpenAI Codex CLI: `codex exec` against the mock Responses API, polc in
// $CODEX_HOME/hooks.json exactly as `polc hook --print-config --host codex` prints it.
//
// Offline: a custom model provider (base_url = the mock, wire_api = "responses"); the
// features that reach GitHub and ChatGPT (plugins, remote_plugin, apps) are disabled, and so
// are analytics and the update check. Codex 0.171 runs a hook from hooks.json only after a
// person has reviewed ("trusted") it; the suite passes --dangerously-bypass-hook-trust, and a
// fact test shows what happens without it.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { COMMAND, DENY_REASON, markerRan, offlineEnv, project, run, sh } from "./lib/util.mjs";

// Codex's permission settings: each sends its own `permission_mode` to the hook.
export const MODES = {
  "full-access": ["-s", "danger-full-access"],
  "workspace-write": ["-s", "workspace-write"],
  "on-request": ["-s", "workspace-write", "-c", 'approval_policy="on-request"'],
};

export function prepare(ctx, dir) {
  const vendor = path.join(dir, "node_modules", "@openai", "codex-linux-x64", "vendor");
  const triple = fs.existsSync(vendor) ? fs.readdirSync(vendor)[0] : null;
  ctx.codexBin = triple && path.join(vendor, triple, "bin", "codex");
  if (!ctx.codexBin || !fs.existsSync(ctx.codexBin)) return `no codex binary under ${vendor} (linux-x64 only)`;
  return null;
}

function printConfig(polc) {
  const r = spawnSync(polc, ["hook", "--print-config", "--host", "codex"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`--print-config failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function hooksJson(cmd) {
  return { hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: cmd }] }] } };
}

export async function codexRun(ctx, { id, decision, layer, hooks, mode = "full-access", trustHooks = true, logInput }) {
  const p = project(ctx.polc, layer);
  const { sc, base } = ctx.mock.scenario(`codex-${id}-${mode}`, { command: COMMAND[decision], cwd: p.root });
  const chome = path.join(p.home, ".codex");
  fs.mkdirSync(chome, { recursive: true });
  fs.writeFileSync(path.join(chome, "hooks.json"), JSON.stringify(hooks));
  const args = [
    "exec",
    "--skip-git-repo-check",
    ...MODES[mode],
    ...(trustHooks ? ["--dangerously-bypass-hook-trust"] : []),
    "--disable",
    "plugins",
    "--disable",
    "remote_plugin",
    "--disable",
    "apps",
    "-c",
    "analytics.enabled=false",
    "-c",
    "check_for_update_on_startup=false",
    "-c",
    'model_provider="mock"',
    "-c",
    `model_providers.mock={name="mock",base_url="${base}/v1",wire_api="responses",env_key="POLC_SUITE_MOCK_KEY"}`,
    "-m",
    "mock-model",
    "run the command",
  ];
  const env = offlineEnv(ctx.proxy.url, {
    HOME: p.home,
    CODEX_HOME: chome,
    POLC_SUITE_MOCK_KEY: "mock",
    ...p.polcEnv,
    POLC_SUITE_HOOK_LOG: logInput,
  });
  const r = await run(ctx.codexBin, args, { cwd: p.root, env, timeoutMs: 90_000 });
  return { ran: markerRan(p.root, decision), r, sc, p };
}

export async function suite(ctx, t) {
  const polc = ctx.polc;
  const pasted = printConfig(polc); // `polc hook --print-config --host codex`, unchanged
  const hook = (...a) => hooksJson(sh(polc, "hook", ...a));
  const rows = [
    { id: "deny", decision: "deny", layer: "user", hooks: pasted, want: false, reasonToModel: true },
    // Codex cannot prompt: polc sends ask as an "approval needed" deny.
    { id: "ask", decision: "ask", layer: "user", hooks: pasted, want: false, reasonText: "approval needed" },
    { id: "allow-user", decision: "allow", layer: "user", hooks: pasted, want: true },
    { id: "allow-project", decision: "allow", layer: "project", hooks: pasted, want: true },
    // No rule: no output; Codex's own approval policy decides (full access: it runs).
    {
      id: "default",
      decision: "default",
      layer: "user",
      hooks: pasted,
      want: (m) => (m === "full-access" ? true : null),
    },
    { id: "corrupt-table", decision: "allow", layer: "corrupt", hooks: pasted, want: false },
    {
      id: "bad-stdin",
      decision: "allow",
      layer: "user",
      want: false,
      hooks: hooksJson(`sh -c ${sh(`cat >/dev/null; printf '{not json' | ${sh(polc, "hook", "--host", "codex")}`)}`),
    },
    // Exit 2 with the reason on stderr and nothing on stdout (what an unknown host answers).
    { id: "unknown-host", decision: "allow", layer: "user", hooks: hook("--host", "nosuch"), want: false },
    { id: "missing-host", decision: "allow", layer: "user", hooks: hook(), want: false },
  ];
  const jobs = [];
  for (const row of rows) {
    for (const mode of Object.keys(MODES)) {
      jobs.push(async () => {
        const { ran, r, sc } = await codexRun(ctx, { ...row, mode });
        const want = typeof row.want === "function" ? row.want(mode) : row.want;
        const name = `codex ${row.id} ${mode}`;
        const detail = `exit ${r.code}; tool calls ${sc.toolCalls}; results ${JSON.stringify(sc.toolResults).slice(0, 300)}; stderr ${r.stderr.slice(-400)}`;
        t.cell("codex", row.id, mode, ran);
        if (sc.toolCalls !== 1) return t.fail(name, `the model's tool call never happened (${detail})`);
        if (want !== null && ran !== want) return t.fail(name, `ran=${ran}, expected ${want} (${detail})`);
        if (row.reasonToModel && !sc.toolResults.some((x) => x.text.includes(DENY_REASON)))
          return t.fail(name, `polc's reason did not reach the model (${detail})`);
        if (row.reasonText && !sc.toolResults.some((x) => x.text.includes(row.reasonText)))
          return t.fail(name, `"${row.reasonText}" did not reach the model (${detail})`);
        t.pass(`${name}${want === null ? " (fact recorded)" : ""}`);
      });
    }
  }
  jobs.push(() => facts(ctx, t, pasted));
  await ctx.pool(jobs);
}

async function facts(ctx, t, pasted) {
  const polc = ctx.polc;
  // What Codex sends as permission_mode for each of its settings.
  for (const mode of Object.keys(MODES)) {
    const p0 = project(polc, "user");
    const log = path.join(p0.home, "hook-input.json");
    const probe = hooksJson(`sh -c ${sh(`tee "$POLC_SUITE_HOOK_LOG" | ${sh(polc, "hook", "--host", "codex")}`)}`);
    await codexRun(ctx, { id: `mode-probe`, decision: "deny", layer: "user", hooks: probe, mode, logInput: log });
    let pm = "(hook not run)";
    try {
      pm = JSON.parse(fs.readFileSync(log, "utf8")).permission_mode ?? "(none)";
    } catch {}
    t.fact("codex", `permission_mode sent with ${MODES[mode].join(" ")}`, pm);
    pm === "(hook not run)"
      ? t.fail(`codex fact: mode ${mode}`, "the probe hook never ran")
      : t.pass(`codex fact: ${mode} sends permission_mode=${pm}`);
  }
  // Without a person's review the hook does not run at all.
  {
    const { ran } = await codexRun(ctx, {
      id: "untrusted-hook",
      decision: "deny",
      layer: "user",
      hooks: pasted,
      trustHooks: false,
    });
    t.fact(
      "codex",
      "a hooks.json hook nobody reviewed (no --dangerously-bypass-hook-trust)",
      ran ? "skipped: the denied command ran" : "ran: the command was denied",
    );
    t.pass(`codex fact: unreviewed hook → command ${ran ? "ran" : "denied"}`);
  }
  // A missing hook binary.
  {
    const { ran } = await codexRun(ctx, {
      id: "missing-binary",
      decision: "deny",
      layer: "user",
      hooks: hooksJson("/nonexistent/polc hook --host codex"),
    });
    t.fact("codex", "missing hook binary (exit 127)", ran ? "the command ran (fail open)" : "the command did not run");
    t.pass(`codex fact: exit 127 → ${ran ? "ran" : "not run"}`);
  }
  // Exit 2 with an empty stderr.
  {
    const { ran } = await codexRun(ctx, {
      id: "exit2-silent",
      decision: "deny",
      layer: "user",
      hooks: hooksJson("sh -c 'cat >/dev/null; exit 2'"),
    });
    t.fact("codex", "hook exit 2 with empty stderr", ran ? "the command ran (fail open)" : "the command did not run");
    t.pass(`codex fact: silent exit 2 → ${ran ? "ran" : "not run"}`);
  }
}
