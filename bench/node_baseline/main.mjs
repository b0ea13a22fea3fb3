// The start-up baseline for bench_runtime: a Node plugin in the shape of Agentty's "New plugin" template
// (one panel with a title, a line of context and two buttons; one command), over a single-file line-JSON
// stdio loop like the Node SDK's (every call a request with its own id; initialize answered at once).
// Written for this benchmark from the behaviour in the host reference (§3); no SDK code is copied.
import readline from "node:readline";

const API_VERSION = 1;
let nextId = 1;
let context = {};

function send(message) {
  process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
}

function call(method, params) {
  send({ id: nextId++, method, params });
}

const ui = {
  column: (children) => ({ type: "column", gap: "medium", children: children.filter(Boolean) }),
  row: (children) => ({ type: "row", gap: "medium", wrap: false, children: children.filter(Boolean) }),
  text: (text, style = "body") => ({ type: "text", text: String(text ?? ""), style }),
  button: (id, label, icon, variant = "secondary") => ({ type: "button", id, label, icon, variant, disabled: false }),
};

function panel() {
  const folder = context?.pane?.cwd ?? context?.workspace?.cwd ?? "no folder";
  return ui.column([
    ui.text("Baseline", "title"),
    ui.text(`Focused: ${folder}`, "muted"),
    ui.row([ui.button("baseline.explain", "Explain", "sparkles", "primary"), ui.button("baseline.refresh", "Refresh", "refresh-cw")]),
  ]);
}

const commands = new Map([["baseline.explain", () => call("ui/showPanel", {})]]);

async function handle(message) {
  if (message.params?.context) context = message.params.context;
  switch (message.method) {
    case "initialize":
      send({ id: message.id, result: { sdkVersion: "bench", apiVersion: API_VERSION } });
      return;
    case "panel/open":
    case "context/changed":
      call("ui/setPanel", { tree: panel() });
      return;
    case "command/execute": {
      const run = commands.get(message.params?.command);
      if (run) run();
      if (message.id !== undefined) send({ id: message.id, result: null });
      return;
    }
    case "shutdown":
      process.exit(0);
    default:
      if (message.method && message.id !== undefined) send({ id: message.id, error: { code: -32601, message: "unknown method" } });
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    process.stderr.write("baseline: ignoring a line that is not JSON\n");
    return;
  }
  handle(message);
}).on("close", () => process.exit(0));
