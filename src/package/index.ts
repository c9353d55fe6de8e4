// Locating files shipped with the package, from sources and from the compiled dist/ alike.
export { PACKAGE_ROOT, packagePath } from './root.ts';
