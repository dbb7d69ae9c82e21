import { readFileSync } from "node:fs";
import { parse } from "./parse";

const file = process.argv[2];
const text: string = readFileSync(file);
const entries = parse(text);
console.log(entries.lenght);
