// Path templates as patterns. Which operation a request goes to is src/client/operation-location.ts's
// operationMatcher (spec paths first, then the profile's locations): the one lookup.

/** `/a/{id}/b` -> /^\/a\/[^/]+\/b$/: each `{param}` segment matches one path segment. */
export function pathPattern(template: string): RegExp {
  const segments = template.split('/').map((seg) => (/^\{[^}]+\}$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${segments.join('/')}$`);
}
