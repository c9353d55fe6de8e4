// A curl command that reproduces one request; callers mask secrets in the result.

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function toCurl(method: string, url: string, headers: Record<string, string>, body?: string): string {
  const parts = ['curl', '-sS', '-i'];
  if (method !== 'GET' || body !== undefined) parts.push('-X', method);
  parts.push(quote(url));
  for (const [k, v] of Object.entries(headers)) parts.push('-H', quote(`${k}: ${v}`));
  if (body !== undefined) parts.push('--data-raw', quote(body));
  return parts.join(' ');
}
