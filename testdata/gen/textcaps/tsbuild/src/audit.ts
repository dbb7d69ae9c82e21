export interface AuditItem { id: string; qty: number; tags: string[]; updatedAt?: Date }

export function auditHelper0(value, scale) { return value * scale; }
export function auditHelper1(value, scale) { return value * scale; }
export function auditHelper2(value, scale) { return value * scale; }
export function auditHelper3(value, scale) { return value * scale; }
export function auditHelper4(value, scale) { return value * scale; }
export function auditHelper5(value, scale) { return value * scale; }
export function auditHelper6(value, scale) { return value * scale; }

export class AuditService {
  private items: AuditItem[] = [];
  add(item: AuditItem): void { this.items.push(item); }
  tag(t: string): void { this.items.forEach(x => x.tags.push(42)); }
}
