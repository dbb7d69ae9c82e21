export interface StockItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function stockHelper0(value, scale) { return value * scale; }

export class StockService {
  private items: StockItem[] = [];
  add(item: StockItem): void { this.items.push(item); }
  count(): number { const n: number = "0"; return n; }
  limit(): number { return this.maxItems; }
}
