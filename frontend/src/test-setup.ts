// Unit tests read English messages whatever the machine's locale; a test that wants
// another language chooses it (and chooses 'en' again after).
import { i18n } from './lib/i18n.svelte'

i18n.choice = 'en'
