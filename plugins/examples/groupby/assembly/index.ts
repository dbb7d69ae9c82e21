// groupby: a compact plugin (ABI v1) written in AssemblyScript with the
// official Extism PDK. It turns a JSON array of objects into one object per
// distinct combination of key fields, each stating exactly how many input
// records it stands for in the member "n", and declares that member as the
// collection's count_field so that the host can verify the sum.
//
// Input:  {"abi":1,...,"config":{"by":"state,user"}}\n[{...},{...},...]
// Output: {"abi":1,"content_type":"application/json","collections":
//          [{"path":".","count":N,"count_field":"n"}]}\n
//         [{"state":"open","n":40},{"state":"closed","n":60}]
import { Host, Memory } from "@extism/as-pdk";
import { error_set } from "@extism/as-pdk/lib/env";

const MAX_AUTO_DISTINCT = 50;

// ---------------------------------------------------------------------------
// A small JSON scanner over bytes. It checks the structure it reads
// (brackets, strings, keys, separators, literals; numbers loosely) and
// keeps values as raw text, so that the output repeats them exactly.

class ParseError {
  constructor(public offset: i32, public message: string) {}
}

class Scanner {
  pos: i32 = 0;
  err: ParseError | null = null;

  constructor(public data: Uint8Array, public end: i32) {}

  fail(message: string): void {
    if (this.err == null) this.err = new ParseError(this.pos, message);
    this.pos = this.end; // stop every loop
  }

  ws(): void {
    while (this.pos < this.end) {
      const c = this.data[this.pos];
      if (c != 0x20 && c != 0x0a && c != 0x0d && c != 0x09) break;
      this.pos++;
    }
  }

  peek(): i32 {
    this.ws();
    return this.pos < this.end ? <i32>this.data[this.pos] : -1;
  }

  expect(c: i32, what: string): void {
    if (this.peek() != c) {
      this.fail("want " + what);
      return;
    }
    this.pos++;
  }

  // Skips a string starting at pos (a '"').
  string(): void {
    this.pos++;
    while (this.pos < this.end) {
      const c = this.data[this.pos];
      if (c == 0x22) {
        this.pos++;
        return;
      }
      if (c == 0x5c) {
        this.pos += 2;
        continue;
      }
      if (c < 0x20) {
        this.fail("control character in string");
        return;
      }
      this.pos++;
    }
    this.fail("unterminated string");
  }

  // Skips one value of any kind.
  value(): void {
    const c = this.peek();
    if (c == 0x22) {
      this.string();
    } else if (c == 0x7b || c == 0x5b) {
      const close = c == 0x7b ? 0x7d : 0x5d;
      this.pos++;
      if (this.peek() == close) {
        this.pos++;
        return;
      }
      while (this.err == null) {
        if (c == 0x7b) {
          if (this.peek() != 0x22) {
            this.fail("want an object key");
            return;
          }
          this.string();
          this.expect(0x3a, "':'");
        }
        this.value();
        const d = this.peek();
        if (d == 0x2c) {
          this.pos++;
          continue;
        }
        if (d == close) {
          this.pos++;
          return;
        }
        this.fail(c == 0x7b ? "want ',' or '}'" : "want ',' or ']'");
      }
    } else if (c == 0x2d || (c >= 0x30 && c <= 0x39)) {
      this.pos++;
      while (this.pos < this.end) {
        const d = this.data[this.pos];
        if (!((d >= 0x30 && d <= 0x39) || d == 0x2e || d == 0x65 || d == 0x45 || d == 0x2b || d == 0x2d)) break;
        this.pos++;
      }
    } else if (c == 0x74 || c == 0x66 || c == 0x6e) {
      const word = c == 0x74 ? "true" : c == 0x66 ? "false" : "null";
      for (let i = 0; i < word.length; i++) {
        if (this.pos + i >= this.end || <i32>this.data[this.pos + i] != word.charCodeAt(i)) {
          this.fail("invalid literal");
          return;
        }
      }
      this.pos += word.length;
    } else {
      this.fail("want a value");
    }
  }

  // Reads a string at pos and returns its decoded text (common escapes).
  text(): string {
    const start = this.pos + 1;
    this.string();
    if (this.err != null) return "";
    const raw = String.UTF8.decodeUnsafe(this.data.dataStart + <usize>start, <usize>(this.pos - 1 - start));
    if (raw.indexOf("\\") < 0) return raw;
    let out = "";
    for (let i = 0; i < raw.length; i++) {
      const ch = raw.charAt(i);
      if (ch != "\\" || i + 1 >= raw.length) {
        out += ch;
        continue;
      }
      const e = raw.charAt(++i);
      if (e == "n") out += "\n";
      else if (e == "t") out += "\t";
      else if (e == "r") out += "\r";
      else if (e == "b") out += "\b";
      else if (e == "f") out += "\f";
      else if (e == "u" && i + 4 < raw.length) {
        out += String.fromCharCode(<i32>parseInt(raw.substr(i + 1, 4), 16));
        i += 4;
      } else out += e;
    }
    return out;
  }

  raw(start: i32): string {
    return String.UTF8.decodeUnsafe(this.data.dataStart + <usize>start, <usize>(this.pos - start));
  }
}

// ---------------------------------------------------------------------------

class Group {
  count: i32 = 0;
  constructor(public values: string[], public first: i32) {}
}

const ABSENT = "\u0001";

function fail(message: string): i32 {
  error_set(Memory.allocateString("groupby: " + message).offset);
  return 1;
}

function output(header: string, payload: Uint8Array): void {
  const h = Uint8Array.wrap(String.UTF8.encode(header + "\n"));
  const out = new Uint8Array(h.length + payload.length);
  out.set(h, 0);
  out.set(payload, h.length);
  Host.output(out);
}

// configBy reads config.by from the input header.
function configBy(s: Scanner): string | null {
  let by: string | null = null;
  s.expect(0x7b, "the header object");
  if (s.peek() == 0x7d) return null;
  while (s.err == null) {
    if (s.peek() != 0x22) {
      s.fail("want a header key");
      break;
    }
    const key = s.text();
    s.expect(0x3a, "':'");
    if (key == "config" && s.peek() == 0x7b) {
      s.pos++;
      if (s.peek() == 0x7d) {
        s.pos++;
      } else {
        while (s.err == null) {
          const ck = s.text();
          s.expect(0x3a, "':'");
          if (ck == "by" && s.peek() == 0x22) by = s.text();
          else s.value();
          const d = s.peek();
          s.pos++;
          if (d == 0x7d) break;
          if (d != 0x2c) s.fail("want ',' or '}' in config");
        }
      }
    } else {
      s.value();
    }
    const d = s.peek();
    s.pos++;
    if (d == 0x7d) break;
    if (d != 0x2c) s.fail("want ',' or '}' in the header");
  }
  return by;
}

// Each record as the raw text of its top-level members.
class Record {
  keys: string[] = [];
  values: string[] = [];
  get(key: string): string {
    // The last occurrence wins, as in most JSON decoders.
    for (let i = this.keys.length - 1; i >= 0; i--) if (this.keys[i] == key) return this.values[i];
    return ABSENT;
  }
}

function readRecords(s: Scanner): Record[] {
  const out: Record[] = [];
  s.expect(0x5b, "a JSON array of objects");
  if (s.err != null) return out;
  if (s.peek() == 0x5d) {
    s.pos++;
    return out;
  }
  while (s.err == null) {
    if (s.peek() != 0x7b) {
      s.fail("element " + out.length.toString() + " is not an object");
      break;
    }
    s.pos++;
    const rec = new Record();
    if (s.peek() == 0x7d) {
      s.pos++;
    } else {
      while (s.err == null) {
        if (s.peek() != 0x22) {
          s.fail("want an object key");
          break;
        }
        const key = s.text();
        s.expect(0x3a, "':'");
        s.ws();
        const start = s.pos;
        s.value();
        rec.keys.push(key);
        rec.values.push(s.raw(start));
        const d = s.peek();
        s.pos++;
        if (d == 0x7d) break;
        if (d != 0x2c) s.fail("want ',' or '}'");
      }
    }
    out.push(rec);
    const d = s.peek();
    s.pos++;
    if (d == 0x5d) break;
    if (d != 0x2c) s.fail("want ',' or ']'");
  }
  return out;
}

// autoBy picks the first member of the first record that is a scalar in
// every record where present and takes at most MAX_AUTO_DISTINCT values.
function autoBy(records: Record[]): string | null {
  if (records.length == 0) return null;
  const first = records[0];
  for (let k = 0; k < first.keys.length; k++) {
    const key = first.keys[k];
    const seen = new Set<string>();
    let ok = true;
    for (let i = 0; i < records.length && ok; i++) {
      const v = records[i].get(key);
      const c = v.charCodeAt(0);
      if (c == 0x7b || c == 0x5b) ok = false;
      seen.add(v);
      if (seen.size > MAX_AUTO_DISTINCT) ok = false;
    }
    if (ok && (seen.size < records.length || records.length == 1)) return key;
  }
  return null;
}

function quote(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c == 0x22) out += '\\"';
    else if (c == 0x5c) out += "\\\\";
    else if (c < 0x20) out += "\\u00" + (c < 0x10 ? "0" : "") + c.toString(16);
    else out += String.fromCharCode(c);
  }
  return out + '"';
}

export function compact_abi_version(): i32 {
  return 1;
}

export function compact_result(): i32 {
  const input = Host.input();
  let nl = -1;
  for (let i = 0; i < input.length; i++) {
    if (input[i] == 0x0a) {
      nl = i;
      break;
    }
  }
  if (nl < 0) return fail("input has no header line");

  const hs = new Scanner(input, nl);
  const configured = configBy(hs);
  if (hs.err != null) return fail("header: " + hs.err!.message + " at offset " + hs.err!.offset.toString());

  const s = new Scanner(input, input.length);
  s.pos = nl + 1;
  const records = readRecords(s);
  if (s.err == null && s.peek() != -1) s.fail("unexpected data after the array");
  if (s.err != null) {
    return fail(s.err!.message + " at offset " + (s.err!.offset - nl - 1).toString() + " of the tool output");
  }

  if (records.length < 2) {
    // No list to group (none or one record, whose members may hold the
    // input's own collections, as EXPLAIN's one plan does): hand the
    // input back, byte for byte, for the host to count.
    output('{"abi":1,"content_type":"application/json","collections":[]}', input.subarray(nl + 1));
    return 0;
  }
  let byList = configured;
  if (byList == null) byList = autoBy(records);
  if (byList == null) return fail("no member with at most 50 distinct scalar values: set config by");
  const by = (<string>byList).split(",");
  for (let i = 0; i < by.length; i++) by[i] = by[i].trim();

  // The count member must not be one of the key fields.
  let countField = "n";
  while (by.includes(countField)) countField = "_" + countField;

  const index = new Map<string, i32>();
  const groups: Group[] = [];
  for (let i = 0; i < records.length; i++) {
    const values: string[] = [];
    for (let j = 0; j < by.length; j++) values.push(records[i].get(by[j]));
    const key = values.join("\u0000");
    let g: i32;
    if (index.has(key)) {
      g = index.get(key);
    } else {
      g = groups.length;
      index.set(key, g);
      groups.push(new Group(values, i));
    }
    groups[g].count++;
  }
  // Groups stay in the order of their first record: the host checks
  // grouped records in that order (schemas/ABI.md §4).

  const parts: string[] = [];
  for (let g = 0; g < groups.length; g++) {
    let obj = "{";
    for (let j = 0; j < by.length; j++) {
      const v = groups[g].values[j];
      if (v == ABSENT) continue;
      obj += quote(by[j]) + ":" + v + ",";
    }
    obj += quote(countField) + ":" + groups[g].count.toString() + "}";
    parts.push(obj);
  }
  const payload = Uint8Array.wrap(String.UTF8.encode("[" + parts.join(",") + "]"));
  if (payload.length >= input.length - nl - 1) {
    // Nothing to gain: hand the input back, byte for byte, for the host
    // to count.
    output('{"abi":1,"content_type":"application/json","collections":[]}', input.subarray(nl + 1));
    return 0;
  }
  output(
    '{"abi":1,"content_type":"application/json","collections":[{"path":".","count":' +
      records.length.toString() +
      ',"count_field":' +
      quote(countField) +
      "}]}",
    payload,
  );
  return 0;
}

// abort is called by AssemblyScript on a failed assertion or an error: it
// reports the message through Extism and traps.
function myAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  let m = "abort";
  if (message !== null) m = message;
  let f = "";
  if (fileName !== null) f = fileName;
  error_set(Memory.allocateString("groupby: " + m + " (" + f + ":" + line.toString() + ":" + column.toString() + ")").offset);
  unreachable();
}
