// The agents' model APIs, mocked on 127.0.0.1, and a refusing proxy that records every
// attempt to reach anything else.
//
// One server serves every scenario: an agent's base URL is http://127.0.0.1:PORT/s/<id>,
// and the scenario <id> says which shell command the "model" asks to run. First turn: a tool
// call of the agent's shell tool running that command. Once a tool result comes back: the
// result is recorded (so a test can check that polc's reason reached the model) and the turn
// ends with a short text. Speaks the Anthropic Messages API (JSON and SSE) and the OpenAI
// Responses API (SSE).

import http from "node:http";

export function startMock() {
  const scenarios = new Map();
  let seq = 0;
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      try {
        route(req, res, body);
      } catch (e) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { type: "mock_error", message: String(e) } }));
      }
    });
  });

  function route(req, res, body) {
    const m = /^\/s\/([^/]+)(\/.*)$/.exec(req.url.split("?")[0]);
    const sc = m && scenarios.get(m[1]);
    const path = m ? m[2] : req.url;
    let json = {};
    try {
      json = body ? JSON.parse(body) : {};
    } catch {}
    if (sc) sc.requests.push({ method: req.method, path, body: json });
    if (!sc) {
      res.writeHead(404, { "content-type": "application/json" });
      return res.end(JSON.stringify({ error: { type: "not_found", message: "no scenario" } }));
    }
    if (req.method === "POST" && /\/messages\/count_tokens$/.test(path)) {
      return sendJson(res, { input_tokens: 10 });
    }
    if (req.method === "POST" && /\/messages$/.test(path)) return anthropic(sc, json, res);
    if (req.method === "POST" && /\/responses$/.test(path)) return responses(sc, json, res);
    if (req.method === "GET" && /\/models$/.test(path)) {
      return sendJson(res, { object: "list", data: [{ id: "mock-model", object: "model" }], models: [] });
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { type: "not_found", message: `mock: no route ${path}` } }));
  }

  // ---- Anthropic Messages API -------------------------------------------------------------

  function anthropic(sc, body, res) {
    const msgs = body.messages || [];
    const last = msgs[msgs.length - 1];
    const results = Array.isArray(last?.content) ? last.content.filter((b) => b && b.type === "tool_result") : [];
    const tools = (body.tools || []).map((t) => t.name);
    let content, stop;
    for (const r of results) sc.toolResults.push({ text: flatten(r.content), isError: !!r.is_error });
    // `commands` (several turns) or `command` (one): the next one not yet asked for.
    const queue = sc.commands || [sc.command];
    if (tools.includes(sc.tool || "Bash") && sc.toolCalls < queue.length && (results.length || !sc.toolUsed)) {
      sc.toolUsed = true;
      content = [
        {
          type: "tool_use",
          id: `toolu_mock${++seq}`,
          name: sc.tool || "Bash",
          input: {
            command: queue[sc.toolCalls++],
            description: "mock: run the command under test",
            ...(sc.extraInput || {}),
          },
        },
      ];
      stop = "tool_use";
    } else if (results.length) {
      content = [{ type: "text", text: "mock: done" }];
      stop = "end_turn";
    } else {
      content = [{ type: "text", text: "mock: ok" }];
      stop = "end_turn";
    }
    const msg = {
      id: `msg_mock${++seq}`,
      type: "message",
      role: "assistant",
      model: body.model || "mock-model",
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 10 },
    };
    if (!body.stream) return sendJson(res, msg);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev("message_start", { message: { ...msg, content: [], stop_reason: null } });
    content.forEach((b, index) => {
      if (b.type === "text") {
        ev("content_block_start", { index, content_block: { type: "text", text: "" } });
        ev("content_block_delta", { index, delta: { type: "text_delta", text: b.text } });
      } else {
        ev("content_block_start", { index, content_block: { ...b, input: {} } });
        ev("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) },
        });
      }
      ev("content_block_stop", { index });
    });
    ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
    ev("message_stop", {});
    res.end();
  }

  // ---- OpenAI Responses API ---------------------------------------------------------------

  function responses(sc, body, res) {
    const input = Array.isArray(body.input) ? body.input : [];
    const outputs = input.filter((i) => i && i.type === "function_call_output");
    const toolNames = (body.tools || []).map((t) => t.name || t.type);
    let item;
    if (outputs.length) {
      for (const o of outputs) sc.toolResults.push({ text: flatten(o.output), isError: false });
      item = {
        type: "message",
        role: "assistant",
        id: `msg_mock${++seq}`,
        status: "completed",
        content: [{ type: "output_text", text: "mock: done", annotations: [] }],
      };
    } else if (!sc.toolUsed) {
      sc.toolUsed = true;
      sc.toolCalls++;
      let name, args;
      if (toolNames.includes("shell_command")) {
        name = "shell_command";
        args = { command: sc.command, workdir: sc.cwd };
      } else if (toolNames.includes("exec_command")) {
        name = "exec_command";
        args = { cmd: sc.command, workdir: sc.cwd };
      } else {
        name = "shell";
        args = { command: ["bash", "-lc", sc.command], workdir: sc.cwd };
      }
      sc.toolName = name;
      item = {
        type: "function_call",
        id: `fc_mock${++seq}`,
        status: "completed",
        name,
        arguments: JSON.stringify(args),
        call_id: `call_mock${seq}`,
      };
    } else {
      item = {
        type: "message",
        role: "assistant",
        id: `msg_mock${++seq}`,
        status: "completed",
        content: [{ type: "output_text", text: "mock: ok", annotations: [] }],
      };
    }
    const id = `resp_mock${++seq}`;
    const usage = {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 10,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 20,
    };
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev("response.created", { response: { id, object: "response", status: "in_progress", output: [] } });
    ev("response.output_item.added", { output_index: 0, item });
    ev("response.output_item.done", { output_index: 0, item });
    ev("response.completed", { response: { id, object: "response", status: "completed", output: [item], usage } });
    res.end();
  }

  function sendJson(res, obj) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(obj));
  }

  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const port = server.address().port;
      resolve({
        port,
        scenario(id, opts) {
          const sc = { id, requests: [], toolResults: [], toolCalls: 0, toolUsed: false, ...opts };
          scenarios.set(id, sc);
          return { sc, base: `http://127.0.0.1:${port}/s/${id}` };
        },
        close: () => new Promise((r) => server.close(r)),
      });
    });
  });
}

function flatten(c) {
  if (c == null) return "";
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map(flatten).join("\n");
  if (typeof c === "object") return c.text ?? JSON.stringify(c);
  return String(c);
}

// A proxy that refuses everything and records where the agent tried to go. Agents get it as
// HTTP(S)_PROXY with NO_PROXY=127.0.0.1,localhost, so a contact with the outside shows up here.
export function startRefusingProxy() {
  const attempts = [];
  const server = http.createServer((req, res) => {
    attempts.push({ kind: "http", target: req.url });
    res.writeHead(403);
    res.end("polc agent suite: offline\n");
  });
  server.on("connect", (req, socket) => {
    attempts.push({ kind: "connect", target: req.url });
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        attempts,
        close: () => new Promise((r) => server.close(r)),
      }),
    );
  });
}
