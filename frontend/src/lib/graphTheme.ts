// Colours the graph canvas takes from the page's CSS variables, so it follows the
// light/dark theme, and the hover label drawn in those colours.
import type { Attributes } from 'graphology-types'
import type { NodeHoverDrawingFunction } from 'sigma/rendering'
import { THEME_EVENT } from './theme.svelte'

export interface GraphTheme {
  label: string
  hoverBg: string
  hoverText: string
  faded: string
  accent: string
  edge: string
  edgeTyped: string
  /** Nodes with pending changes. */
  pending: string
  /** What a change set shown as a diff adds, and removes (its ghosts). */
  added: string
  removed: string
}

/** readTheme reads the theme from CSS variables on an element (document root by default). */
export function readTheme(el: Element = document.documentElement): GraphTheme {
  const css = getComputedStyle(el)
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback
  return {
    label: v('--text-muted', '#6b6f78'),
    hoverBg: v('--bg', '#ffffff'),
    hoverText: v('--text', '#26272b'),
    faded: v('--border', '#e2e2e6'),
    accent: v('--accent', '#5b6ee1'),
    edge: v('--graph-edge', '#d9dce2'),
    edgeTyped: v('--graph-edge-typed', '#b3b9c5'),
    pending: v('--pending', '#c98a1b'),
    added: v('--graph-added', '#2f9e5b'),
    removed: v('--graph-removed', '#e3a0a0'),
  }
}

/** hoverDrawer draws a hovered node's label on a rounded box in the theme's colours. */
export function hoverDrawer<N extends Attributes, E extends Attributes>(theme: () => GraphTheme): NodeHoverDrawingFunction<N, E> {
  return (ctx, data, settings) => {
    const t = theme()
    const size = settings.labelSize
    ctx.font = `500 ${size}px ${settings.labelFont}`
    const label = data.label ?? ''
    const w = ctx.measureText(label).width
    const pad = 4
    const x = data.x + data.size + 3
    const h = size + pad * 2
    ctx.fillStyle = t.hoverBg
    ctx.shadowColor = 'rgba(0,0,0,0.18)'
    ctx.shadowBlur = 6
    ctx.beginPath()
    ctx.roundRect(x - pad, data.y - h / 2, w + pad * 2, h, 4)
    ctx.fill()
    ctx.shadowBlur = 0
    ctx.beginPath()
    ctx.arc(data.x, data.y, data.size + 2, 0, Math.PI * 2)
    ctx.fill()
    ctx.fillStyle = t.hoverText
    ctx.fillText(label, x, data.y + size / 3)
  }
}

/**
 * followTheme calls onchange when the theme changes: the system's light or dark, or
 * a theme picked in the settings (the system's change comes through both). It returns
 * a function that stops following.
 */
export function followTheme(onchange: () => void): () => void {
  const dark = window.matchMedia('(prefers-color-scheme: dark)')
  dark.addEventListener('change', onchange)
  window.addEventListener(THEME_EVENT, onchange)
  return () => {
    dark.removeEventListener('change', onchange)
    window.removeEventListener(THEME_EVENT, onchange)
  }
}
