export interface Entry { account: string; cents: number }

export function parse(text: string): Entry[] {
  return text.split("\n").map((line) => {
    const [account, amount] = line.split(",");
    return { account, cents: amount };
  });
}

export function total(entries) {
  return entries.reduce((s: number, e: Entry) => s + e.cents, 0);
}
