/**
 * A module loader hook over tsx's: tsx transforms with esbuild's `keepNames` always on, so every
 * named closure a function makes (`const consider = (ord) => …`) is wrapped in `__name(fn, "consider")`,
 * an Object.defineProperty per closure made: ~0.5 µs each here, 7–10% of a type-ahead request's
 * time (docs/perf-log/2026-11-27-names.md). tsx does not rename identifiers, so the name that call
 * keeps is the one JavaScript infers anyway: the helper is made to hand the function back as it is.
 * Same length, so the source map's columns still hold.
 */
const HELPER = 'var __name=(target,value)=>__defProp(target,"name",{value,configurable:true});';
const CHEAP = 'var __name=(target,value)=>target;'.padEnd(HELPER.length, ' ');

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (loaded.format !== 'module' || loaded.source == null || !/\.[cm]?tsx?$/.test(url))
    return loaded;
  const source = String(loaded.source);
  const at = source.indexOf(HELPER);
  return at < 0
    ? loaded
    : { ...loaded, source: source.slice(0, at) + CHEAP + source.slice(at + HELPER.length) };
}
