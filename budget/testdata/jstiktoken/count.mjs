// Counts tokens with js-tiktoken for budget's TestCountMatchesJSTiktoken.
// Reads a JSON array of {"encoding": name, "text": string} on standard
// input and writes a JSON array of token counts, one per element. Special
// tokens are counted as ordinary text, as the Go counter does.
import { getEncoding } from "js-tiktoken";

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
const encs = {};
const counts = JSON.parse(input).map(({ encoding, text }) => {
  encs[encoding] ??= getEncoding(encoding);
  return encs[encoding].encode(text, [], []).length;
});
process.stdout.write(JSON.stringify(counts));
