export interface ReturnsItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function returnsHelper0(value, scale) { return value * scale; }
export function returnsHelper1(value, scale) { return value * scale; }
export function returnsHelper2(value, scale) { return value * scale; }
export function returnsHelper3(value, scale) { return value * scale; }
export function returnsHelper4(value, scale) { return value * scale; }

export class ReturnsService {
  private items: ReturnsItem[] = [];
  add(item: ReturnsItem): void { this.items.push(item); }
  count(): number { const n: number = "6"; return n; }
  limit(): number { return this.maxItems; }
}
