// Types for the one internal module of graphology-layout-forceatlas2 the layout worker uses.
declare module 'graphology-layout-forceatlas2/iterate' {
  /** One ForceAtlas2 iteration over flat node and edge arrays, in place. */
  export default function iterate(options: object, nodes: Float32Array, edges: Float32Array): void
}
