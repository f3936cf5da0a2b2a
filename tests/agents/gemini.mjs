// Gemini CLI core (`@google/gemini-cli-core`): its own hook runner runs polc as a BeforeTool
// command hook, its aggregator merges the answer, and its scheduler's BeforeTool evaluation
// (`evaluateBeforeToolHook`) turns that into block / ask / continue — Gemini's code end to
// end from the hook process to the decision, without a model (no network at all).

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { COMMAND, DENY_REASON, project, sh } from "./lib/util.mjs";

let core;

export async function prepare(ctx, dir) {
  const base = path.join(dir, "node_modules", "@google", "gemini-cli-core", "dist", "src");
  if (!fs.existsSync(base)) return `no dist/src in ${dir}`;
  console.debug = () => {}; // the core's debug logger is chatty
  const t0 = Date.now();
  const imp = (f) => import(pathToFileURL(path.join(base, f)).href);
  core = {
    HookRunner: (await imp("hooks/hookRunner.js")).HookRunner,
    HookAggregator: (await imp("hooks/hookAggregator.js")).HookAggregator,
    evaluateBeforeToolHook: (await imp("scheduler/hook-utils.js")).evaluateBeforeToolHook,
    ApprovalMode: (await imp("policy/types.js")).ApprovalMode,
  };
  console.log(`# gemini core loaded in ${Date.now() - t0} ms`);
  return null;
}

// One BeforeTool call through Gemini's runner, aggregator and scheduler evaluation.
// Returns {outcome: "blocked"|"ask"|"continue"|"stopped", reason, raw}.
export async function geminiCall(ctx, { layer, decision, command, env = {} }) {
  const p = project(ctx.polc, layer);
  const config = {
    isTrustedFolder: () => true,
    sanitizationConfig: { enableEnvironmentVariableRedaction: false },
    storage: { getPlansDir: () => path.join(p.home, "plans") },
  };
  const runner = new core.HookRunner(config);
  const input = {
    session_id: `gemini-suite-${Math.random().toString(36).slice(2)}`,
    transcript_path: path.join(p.home, "t.json"),
    cwd: p.root,
    hook_event_name: "BeforeTool",
    timestamp: new Date().toISOString(),
    tool_name: "run_shell_command",
    tool_input: { command: COMMAND[decision] },
  };
  const saved = { ...process.env };
  Object.assign(process.env, p.polcEnv, env);
  let result;
  try {
    result = await runner.executeHook(
      { type: "command", command, timeout: 30_000, source: "user" },
      "BeforeTool",
      input,
    );
  } finally {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
  const agg = new core.HookAggregator().aggregateResults([result], "BeforeTool");
  const hookSystem = { fireBeforeToolEvent: async () => agg.finalOutput };
  const fakeConfig = {
    getHookSystem: () => hookSystem,
    getMcpClientManager: () => undefined,
    getToolRegistry: () => undefined,
  };
  const ev = await core.evaluateBeforeToolHook(
    fakeConfig,
    { build: (x) => x },
    { name: "run_shell_command", args: input.tool_input, originalRequestName: "run_shell_command" },
    { params: input.tool_input },
  );
  let outcome = "continue";
  if (ev.status === "error") outcome = /stopped/.test(ev.error.message) ? "stopped" : "blocked";
  else if (ev.hookDecision === "ask") outcome = "ask";
  return {
    outcome,
    reason: ev.error?.message || "",
    raw: { stdout: result.stdout, stderr: result.stderr, exit: result.exitCode },
  };
}

export async function suite(ctx, t) {
  const polc = ctx.polc;
  const hook = (...a) => sh(polc, "hook", ...a);
  // outcome: "blocked" (Gemini does not run the tool), "ask" (Gemini's confirmation), or
  // "continue" (Gemini's own policy engine decides, as with no hook).
  const rows = [
    {
      id: "deny",
      decision: "deny",
      layer: "user",
      command: hook("--host", "gemini"),
      want: "blocked",
      reason: DENY_REASON,
    },
    { id: "ask", decision: "ask", layer: "user", command: hook("--host", "gemini"), want: "ask" },
    { id: "allow-user", decision: "allow", layer: "user", command: hook("--host", "gemini"), want: "continue" },
    { id: "allow-project", decision: "allow", layer: "project", command: hook("--host", "gemini"), want: "continue" },
    { id: "default", decision: "default", layer: "user", command: hook("--host", "gemini"), want: "continue" },
    { id: "no-table", decision: "default", layer: "none", command: hook("--host", "gemini"), want: "continue" },
    { id: "corrupt-table", decision: "allow", layer: "corrupt", command: hook("--host", "gemini"), want: "blocked" },
    {
      id: "bad-stdin",
      decision: "allow",
      layer: "user",
      want: "blocked",
      command: `sh -c ${sh(`cat >/dev/null; printf '{not json' | ${hook("--host", "gemini")}`)}`,
    },
    { id: "unknown-host", decision: "allow", layer: "user", command: hook("--host", "nosuch"), want: "blocked" },
    { id: "missing-host", decision: "allow", layer: "user", command: hook(), want: "blocked" },
    {
      id: "crash",
      decision: "allow",
      layer: "user",
      command: hook("--host", "gemini"),
      env: { POLC_HOOK_SELFTEST: "segv" },
      want: "blocked",
      debugOnly: true,
    },
  ];
  for (const row of rows) {
    const name = `gemini ${row.id}`;
    const r = await geminiCall(ctx, row);
    t.cell("gemini", row.id, "BeforeTool", r.outcome);
    if (row.debugOnly && !/debug/.test(polc)) {
      t.pass(`${name} (release binary: no crash injection)`);
      continue;
    }
    if (r.outcome !== row.want)
      t.fail(name, `outcome ${r.outcome}, expected ${row.want} (${JSON.stringify(r.raw).slice(0, 400)})`);
    else if (row.reason && !r.reason.includes(row.reason)) t.fail(name, `reason lost: ${r.reason}`);
    else t.pass(`${name} → ${r.outcome}`);
  }
  // Facts.
  const missing = await geminiCall(ctx, {
    layer: "user",
    decision: "deny",
    command: "/nonexistent/polc hook --host gemini",
  });
  t.fact("gemini", "missing hook binary (exit 127)", missing.outcome);
  missing.outcome === "blocked"
    ? t.pass("gemini fact: exit 127 blocks")
    : t.fail("gemini fact: exit 127", missing.outcome);
  const one = await geminiCall(ctx, {
    layer: "user",
    decision: "deny",
    command: "sh -c 'cat >/dev/null; echo oops >&2; exit 1'",
  });
  t.fact("gemini", "hook exit 1 (non-blocking error)", one.outcome);
  t.pass(`gemini fact: exit 1 → ${one.outcome}`);
  const stop = await geminiCall(ctx, {
    layer: "user",
    decision: "deny",
    command: `sh -c ${sh(`cat >/dev/null; printf '{"continue":false,"stopReason":"suite"}'`)}`,
  });
  t.fact(
    "gemini",
    "`continue: false` in a BeforeTool answer",
    stop.outcome === "stopped" ? "ends the agent's execution" : stop.outcome,
  );
  t.pass(`gemini fact: continue:false → ${stop.outcome}`);
  t.fact(
    "gemini",
    "approval modes (core's ApprovalMode)",
    Object.values(core.ApprovalMode).join(", ") + "; none is sent to the hook",
  );
}
