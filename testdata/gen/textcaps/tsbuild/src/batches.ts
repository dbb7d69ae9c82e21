export interface BatchesItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function batchesHelper0(value, scale) { return value * scale; }
export function batchesHelper1(value, scale) { return value * scale; }
export function batchesHelper2(value, scale) { return value * scale; }
export function batchesHelper3(value, scale) { return value * scale; }
export function batchesHelper4(value, scale) { return value * scale; }

export class BatchesService {
  private items: BatchesItem[] = [];
  add(item: BatchesItem): void { this.items.push(item); }
  count(): number { const n: number = "10"; return n; }
}
