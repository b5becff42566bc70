/* The site's search box run by Node, without a browser: `node tools/box_node.js MODEL.json`
   reads a JSON list of [query, game|null] on standard input and prints, as JSON, the ids the
   box would show for each (window.reglesSearch), in order. The box script is loaded as the page
   loads it; only `window`, `fetch` and DOMContentLoaded are stood in for. */
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const modelPath = process.argv[2];
const script = fs.readFileSync(path.join(__dirname, "..", "site", "assets", "regles-search.js"), "utf8");
const window = { addEventListener() {} };
const context = vm.createContext({
  window,
  fetch: async () => ({ json: async () => JSON.parse(fs.readFileSync(modelPath, "utf8")) }),
  console, Map, Object, Math, JSON, RegExp, Array, String, Promise,
});
vm.runInContext(script, context);
const queries = JSON.parse(fs.readFileSync(0, "utf8"));
(async () => {
  const out = [];
  for (const [query, game] of queries) out.push(await window.reglesSearch(query, game));
  process.stdout.write(JSON.stringify(out));
})();
