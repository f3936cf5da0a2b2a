// GitHub Copilot CLI (`@github/copilot`, opt-in): `copilot -p` against the mock (its own
// bring-your-own-provider settings: COPILOT_PROVIDER_TYPE=anthropic, COPILOT_PROVIDER_BASE_URL
// = the mock), polc wired exactly as `polc hook --print-config --host copilot` prints it, in
// the project's .github/hooks/polc.json.
//
// Offline: COPILOT_OFFLINE=true (no GitHub API, no telemetry, no update check). Print mode
// loads repository hooks only in a trusted folder or with
// GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true (a fact test shows the hook is skipped without).

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { COMMAND, DENY_REASON, markerRan, offlineEnv, project, run, sh } from "./lib/util.mjs";

export const MODES = {
  default: [],
  "allow-all-tools": ["--allow-all-tools"],
};

export function prepare(ctx, dir) {
  ctx.copilotBin = path.join(dir, "node_modules", "@github", "copilot-linux-x64", "copilot");
  return fs.existsSync(ctx.copilotBin) ? null : `no copilot binary in ${dir} (linux-x64 only)`;
}

function printConfig(polc) {
  const r = spawnSync(polc, ["hook", "--print-config", "--host", "copilot"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`--print-config failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function hooksFile(cmd) {
  return { version: 1, hooks: { preToolUse: [{ type: "command", bash: cmd, timeoutSec: 10 }] } };
}

async function copilotRun(ctx, { id, decision, layer, hooks, mode = "default", repoHooks = true }) {
  const p = project(ctx.polc, layer);
  const { sc, base } = ctx.mock.scenario(`copilot-${id}-${mode}`, { command: COMMAND[decision], tool: "bash" });
  fs.mkdirSync(path.join(p.root, ".github", "hooks"), { recursive: true });
  fs.writeFileSync(path.join(p.root, ".github", "hooks", "polc.json"), JSON.stringify(hooks));
  const env = offlineEnv(ctx.proxy.url, {
    HOME: p.home,
    COPILOT_HOME: path.join(p.home, ".copilot"),
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PROVIDER_TYPE: "anthropic",
    COPILOT_PROVIDER_BASE_URL: base,
    COPILOT_PROVIDER_API_KEY: "mock",
    COPILOT_PROVIDER_MODEL_ID: "claude-sonnet-4-5",
    COPILOT_MODEL: "claude-sonnet-4.5",
    GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: repoHooks ? "true" : undefined,
    ...p.polcEnv,
  });
  const r = await run(ctx.copilotBin, ["-p", "run the command", ...MODES[mode]], {
    cwd: p.root,
    env,
    timeoutMs: 90_000,
  });
  return { ran: markerRan(p.root, decision), r, sc };
}

export async function suite(ctx, t) {
  const polc = ctx.polc;
  const pasted = printConfig(polc);
  const hook = (...a) => hooksFile(sh(polc, "hook", ...a));
  const rows = [
    { id: "deny", decision: "deny", layer: "user", hooks: pasted, want: false, reasonToModel: true },
    // Copilot turns a hook's ask into a deny when nobody can answer (print mode).
    { id: "ask", decision: "ask", layer: "user", hooks: pasted, want: false },
    { id: "allow-user", decision: "allow", layer: "user", hooks: pasted, want: true },
    { id: "allow-project", decision: "allow", layer: "project", hooks: pasted, want: true },
    { id: "default", decision: "default", layer: "user", hooks: pasted, want: (m) => m === "allow-all-tools" },
    { id: "corrupt-table", decision: "allow", layer: "corrupt", hooks: pasted, want: false },
    {
      id: "bad-stdin",
      decision: "allow",
      layer: "user",
      want: false,
      hooks: hooksFile(`sh -c ${sh(`cat >/dev/null; printf '{not json' | ${sh(polc, "hook", "--host", "copilot")}`)}`),
    },
    { id: "unknown-host", decision: "allow", layer: "user", hooks: hook("--host", "nosuch"), want: false },
    { id: "missing-host", decision: "allow", layer: "user", hooks: hook(), want: false },
  ];
  const jobs = [];
  for (const row of rows) {
    for (const mode of Object.keys(MODES)) {
      jobs.push(async () => {
        const { ran, r, sc } = await copilotRun(ctx, { ...row, mode });
        const want = typeof row.want === "function" ? row.want(mode) : row.want;
        const name = `copilot ${row.id} ${mode}`;
        const detail = `exit ${r.code}; tool calls ${sc.toolCalls}; results ${JSON.stringify(sc.toolResults).slice(0, 300)}; stderr ${r.stderr.slice(-300)}`;
        t.cell("copilot", row.id, mode, ran);
        if (sc.toolCalls !== 1) return t.fail(name, `the model's tool call never happened (${detail})`);
        if (ran !== want) return t.fail(name, `ran=${ran}, expected ${want} (${detail})`);
        if (row.reasonToModel && !sc.toolResults.some((x) => x.text.includes(DENY_REASON)))
          return t.fail(name, `polc's reason did not reach the model (${detail})`);
        t.pass(name);
      });
    }
  }
  jobs.push(async () => {
    const { ran } = await copilotRun(ctx, {
      id: "no-repo-hooks",
      decision: "deny",
      layer: "user",
      hooks: pasted,
      mode: "allow-all-tools",
      repoHooks: false,
    });
    t.fact(
      "copilot",
      "print mode in an untrusted folder without GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS",
      ran ? "repository hooks skipped: the denied command ran" : "the hook ran",
    );
    t.pass(`copilot fact: untrusted folder → hook ${ran ? "skipped" : "ran"}`);
  });
  jobs.push(async () => {
    const { ran } = await copilotRun(ctx, {
      id: "missing-binary",
      decision: "deny",
      layer: "user",
      hooks: hooksFile("/nonexistent/polc hook --host copilot"),
      mode: "allow-all-tools",
    });
    t.fact(
      "copilot",
      "missing hook binary (exit 127) with --allow-all-tools",
      ran ? "the command ran (fail open)" : "the command did not run",
    );
    t.pass(`copilot fact: exit 127 → ${ran ? "ran" : "not run"}`);
  });
  jobs.push(async () => {
    const { ran } = await copilotRun(ctx, {
      id: "exit2",
      decision: "deny",
      layer: "user",
      hooks: hooksFile("sh -c 'cat >/dev/null; echo polc-agent-suite >&2; exit 2'"),
      mode: "allow-all-tools",
    });
    t.fact(
      "copilot",
      "camelCase preToolUse hook: exit 2 with a reason on stderr, nothing on stdout",
      ran ? "the command ran (fail open)" : "blocked",
    );
    t.pass(`copilot fact: exit 2 + stderr → ${ran ? "ran" : "blocked"}`);
  });
  await ctx.pool(jobs);
}
