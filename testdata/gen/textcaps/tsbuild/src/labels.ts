export interface LabelsItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function labelsHelper0(value, scale) { return value * scale; }
export function labelsHelper1(value, scale) { return value * scale; }
export function labelsHelper2(value, scale) { return value * scale; }

export class LabelsService {
  private items: LabelsItem[] = [];
  add(item: LabelsItem): void { this.items.push(item); }
  first(): number { const it = this.items.find(x => x.qty > 0); return it.qty; }
  total(): number { return this.items.reduce((s, x) => s + x.qtty, 0); }
}
