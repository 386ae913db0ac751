/** Types of extensionBundles.mjs (plain JS, as esbuild.mjs imports it), for bench/bundles.ts and the budget test. */
export declare const CORE_BUNDLE: string;
export declare const LAZY_BUNDLES: readonly { readonly entry: string; readonly out: string }[];

export interface BuiltBundle {
  /** The file name in the output directory, e.g. extension.js. */
  readonly name: string;
  readonly bytes: number;
  /** The modules it holds (paths relative to the repository), not those it takes from the core. */
  readonly modules: readonly string[];
}

export declare function buildExtensionBundles(options: { outdir: string; production?: boolean; write?: boolean }): Promise<{
  readonly bundles: readonly BuiltBundle[];
  /** The core's modules that lazy bundles take from it (its `sharedModules` export). */
  readonly shared: readonly string[];
}>;
