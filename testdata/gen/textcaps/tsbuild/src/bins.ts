export interface BinsItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function binsHelper0(value, scale) { return value * scale; }
export function binsHelper1(value, scale) { return value * scale; }
export function binsHelper2(value, scale) { return value * scale; }

export class BinsService {
  private items: BinsItem[] = [];
  add(item: BinsItem): void { this.items.push(item); }
  total(): number { return this.items.reduce((s, x) => s + x.qtty, 0); }
}
