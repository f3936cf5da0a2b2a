// Claude Code with polc's session features (src/session/README.md), the real agent:
// - a sequence rule's interrupt, PreToolUse (`continue: false` + `stopReason`) and
//   PermissionRequest (`interrupt: true`): the step that completes the sequence never runs,
//   and whether the agent's turn ends is recorded (and asserted where Claude Code ends it);
// - a remembered approval (`remember`): the same command runs again without asking polc,
//   and a longer command is still asked about.
// Label `session` (POLC_AGENTS_ONLY=session runs only these).

import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { claudeEnv, sdkRun, settingsFor } from "./claude.mjs";
import { run, sh, tmpdir } from "./lib/util.mjs";

// Two steps: `touch arm-marker` (allowed) then `touch fire-marker` (the sequence's last step:
// deny and interrupt). `touch after-marker` is what the model asks for if its turn goes on.
const SEQ_POLICY = `
allow bash prefix "touch arm-marker"
allow bash prefix "touch after-marker"
deny sequence {
  id      suite-seq
  reason  "polc-agent-suite: sequence completed"
  step    bash prefix "touch arm-marker"
  step    bash prefix "touch fire-marker"
  interrupt
  example "touch arm-marker" then "touch fire-marker" => deny
}
`;

const REMEMBER_POLICY = `
allow bash exact "git init" {
  id       suite-remember
  remember
}
`;

function label(name, f) {
  f.label = name;
  return f;
}

// A throwaway project whose user-layer table is built from `policy`.
function sessionProject(polc, policy) {
  const root = tmpdir("proj");
  const config = tmpdir("cfg");
  const home = tmpdir("home");
  const src = path.join(config, "src");
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, "suite.pol"), policy);
  const r = spawnSync(polc, ["build", src, "-o", path.join(config, "policy.bin")], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`polc build failed: ${r.stderr}${r.stdout}`);
  const polcEnv = { POLC_CONFIG_DIR: config, POLC_CACHE_DIR: tmpdir("cache"), POLC_STATE_DIR: tmpdir("state") };
  return { root, config, home, polcEnv };
}

const exists = (p, name) => fs.existsSync(path.join(p.root, name));
const modelTurns = (sc) => sc.requests.filter((q) => /\/messages$/.test(q.path) && (q.body.tools || []).length).length;

// A hook command that also appends a line per call to `log` (to count polc's calls).
function counted(polc, log, ...args) {
  return `sh -c ${sh(`echo call >> ${sh(log)}; exec ${sh(polc, ...args)}`)}`;
}

export function sessionJobs(ctx, t) {
  const polc = ctx.polc;
  const cmds = ["touch arm-marker", "touch fire-marker", "touch after-marker"];
  return [
    label("session", async () => {
      // PreToolUse, print mode, bypassPermissions (Claude's own flow would run anything).
      const p = sessionProject(polc, SEQ_POLICY);
      const { sc, base } = ctx.mock.scenario("claude-session-pretool-interrupt", { commands: cmds });
      const sfile = path.join(p.home, "s.json");
      fs.writeFileSync(sfile, JSON.stringify(settingsFor(sh(polc, "hook", "--host", "claude"))));
      const r = await run(
        "node",
        [ctx.claudeCli, "-p", "go", "--settings", sfile, "--permission-mode", "bypassPermissions", "--output-format", "json"],
        { cwd: p.root, env: claudeEnv(ctx, base, p), timeoutMs: 90_000 },
      );
      const armed = exists(p, "arm-marker"),
        fired = exists(p, "fire-marker"),
        after = exists(p, "after-marker");
      const ended = sc.toolCalls === 2 && !after;
      const stopped = sc.toolResults.some((x) => x.text.includes("polc-agent-suite: sequence completed"));
      t.fact(
        "claude",
        "polc sequence deny + interrupt, PreToolUse (`continue: false`, `stopReason`), bypassPermissions",
        `${fired ? "ran" : "not run"}; ${ended ? "the turn ended" : `the turn went on (${sc.toolCalls} tool calls, ${modelTurns(sc)} model requests)`}`,
      );
      if (!armed || fired || !stopped)
        return t.fail(
          "claude session: PreToolUse interrupt",
          `arm ran ${armed}, fire ran ${fired}, reason reached the model ${stopped} (exit ${r.code}; ${r.stderr.slice(0, 300)}; ${JSON.stringify(sc.toolResults).slice(0, 300)})`,
        );
      t.pass(`claude session: PreToolUse sequence deny (${ended ? "turn ended" : "turn went on"})`);
    }),
    label("session", async () => {
      // PermissionRequest only, SDK mode: polc's deny carries `interrupt: true`.
      const p = sessionProject(polc, SEQ_POLICY);
      const { sc, base } = ctx.mock.scenario("claude-session-permreq-interrupt", { commands: cmds });
      const sfile = path.join(p.home, "s.json");
      const hook = sh(polc, "hook", "--host", "claude", "--event", "permission-request");
      fs.writeFileSync(sfile, JSON.stringify(settingsFor(hook, "PermissionRequest")));
      const r = await sdkRun(ctx.claudeCli, sfile, { cwd: p.root, env: claudeEnv(ctx, base, p) });
      const armed = exists(p, "arm-marker"),
        fired = exists(p, "fire-marker"),
        after = exists(p, "after-marker");
      const ended = sc.toolCalls === 2 && !after;
      t.fact(
        "claude",
        "polc sequence deny + `interrupt: true`, PermissionRequest (SDK mode)",
        `${fired ? "ran" : "not run"}; ${ended ? "the turn ended" : `the turn went on (${sc.toolCalls} tool calls, ${modelTurns(sc)} model requests)`}`,
      );
      if (!armed || fired)
        return t.fail(
          "claude session: PermissionRequest interrupt",
          `arm ran ${armed}, fire ran ${fired}, after ran ${after}, tool calls ${sc.toolCalls}, prompts ${r.prompts} (exit ${r.code}; ${r.stderr.slice(0, 300)})`,
        );
      t.pass(`claude session: PermissionRequest sequence deny (${ended ? "turn ended" : "turn went on"})`);
    }),
    label("session", async () => {
      // A remembered approval: the same command again is not asked about; a longer one is.
      const p = sessionProject(polc, REMEMBER_POLICY);
      const log = path.join(p.home, "hook-calls.log");
      // \`git init\` names no file and Claude Code asks about it (it is not one of its
      // read-only commands); a command that names a file is never remembered (its allow
      // rests on a path check), and Claude Code allows its read-only commands by itself.
      const commands = ["git init", "git init", "git init extra-dir", "git init > redirect-marker"];
      const { sc, base } = ctx.mock.scenario("claude-session-remember", { commands });
      const sfile = path.join(p.home, "s.json");
      const hook = counted(polc, log, "hook", "--host", "claude", "--event", "permission-request");
      fs.writeFileSync(sfile, JSON.stringify(settingsFor(hook, "PermissionRequest")));
      const r = await sdkRun(ctx.claudeCli, sfile, { cwd: p.root, env: claudeEnv(ctx, base, p), timeoutMs: 120_000 });
      const calls = fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n").length : 0;
      const outputs = sc.toolResults.map((x) => x.text);
      const again = /Reinitialized/.test(outputs[1] || "");
      const extra = exists(p, "extra-dir"),
        redirect = exists(p, "redirect-marker");
      t.fact(
        "claude",
        "remembered `git init` (session), then `git init > redirect-marker`",
        redirect ? "ran without asking (Claude Code matches an exact rule without redirections)" : "asked (not run)",
      );
      // Call 1 asks polc; call 2 is remembered (no hook call); call 3 asks polc (then the
      // person, who says no); call 4 is recorded.
      const ok = sc.toolCalls === 4 && exists(p, ".git") && again && !extra && calls >= 2 && r.prompts >= 1;
      const detail = `tool calls ${sc.toolCalls}, polc calls ${calls}, prompts ${r.prompts}, second ran ${again}, extra ran ${extra}, redirect ran ${redirect}; ${JSON.stringify(sc.toolResults).slice(0, 400)}`;
      t.fact("claude", "remembered approval: polc calls for [same, same, longer, redirected]", detail);
      if (!ok || calls > 3) return t.fail("claude session: remembered approval", detail);
      t.pass("claude session: a remembered rule matches only that command");
    }),
  ];
}
