// Runs a Python script under real MicroPython (the WebAssembly port) in Node.js.
//   node run.mjs SCRIPT.py [DEST=SRC ...]
// Each DEST=SRC copies the host file SRC into MicroPython's in-memory file
// system at DEST (folders are made as needed), so the script can import it.
// Exit status: 0 if the script ran to the end, 1 if it raised, 2 on bad usage.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = join(here, "node_modules", "@micropython", "micropython-webassembly-pyscript",
                 "micropython.mjs");

const [script, ...copies] = process.argv.slice(2);
if (!script) {
  console.error("usage: node run.mjs SCRIPT.py [DEST=SRC ...]");
  process.exit(2);
}
const { loadMicroPython } = await import(pkg);
const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function makeDirs(path) {
  let sofar = "";
  for (const part of path.split("/").slice(1, -1)) {
    sofar += "/" + part;
    try { mp.FS.mkdir(sofar); } catch (error) { /* already there */ }
  }
}

for (const copy of copies) {
  const at = copy.indexOf("=");
  if (at < 1) {
    console.error(`bad copy ${copy}: expected DEST=SRC`);
    process.exit(2);
  }
  const dest = copy.slice(0, at);
  makeDirs(dest);
  mp.FS.writeFile(dest, readFileSync(copy.slice(at + 1)));
}

try {
  mp.runPython(readFileSync(script, "utf8"));
} catch (error) {
  console.error(error.message ?? String(error));
  process.exit(1);
}
